import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Ctx } from './ctx.js'
import { ctx } from './ctx-slot.js'
import { finish } from './finish.js'
import { kChain } from './symbols.js'

/** A function of a `handle()` chain: gets the `Ctx`, may call `c.next()`, may return a value to send. */
export type Handler = (c: Ctx) => unknown

/**
 * A Fastify route handler built by `handle()`: it returns an awaitable of what to send (Fastify
 * sends the value a handler's promise resolves to).
 */
export type WeftHandler = ((request: FastifyRequest, reply: FastifyReply) => PromiseLike<unknown>) & {
  readonly [kChain]: readonly Handler[]
}

// Not an async function: a chain that settles synchronously (`(c) => c.sendString('hi')`) is
// finished at once, without the promise and microtask turns of `await`. What it leaves to send
// is still handed over as a resolved promise, not as a value: Fastify sends a value at once, from
// inside Node's HTTP parser, and under pipelined load that costs more CPU per request than sending
// it from the microtask queue once the parser is done with its chunk (plain Fastify's synchronous
// handlers included: 0.94x its async ones on the peers' pagination route, bench/RESULTS.md).
// A finish that throws is a handler that throws: Fastify's error path either way.
function run(c: Ctx, chain: readonly Handler[]): PromiseLike<unknown> {
  c._chain = chain
  c._index = 0
  const result = (chain[0] as Handler)(c)
  if (!isThenable(result)) return Promise.resolve(finish(c, result))
  return new Settling(c, result)
}

/**
 * What `handle()` gives Fastify for a chain still running: a thenable, not a promise. Fastify
 * only calls its `then`, with its own callbacks, and these go straight to the chain's promise:
 * `promise.then(finish)` handed Fastify a second promise, one more allocation and microtask turn
 * per request (bench/RESULTS.md, "layer by layer", 2026-11-29).
 */
class Settling implements PromiseLike<unknown> {
  readonly #c: Ctx
  readonly #result: PromiseLike<unknown>

  constructor(c: Ctx, result: PromiseLike<unknown>) {
    this.#c = c
    this.#result = result
  }

  // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, for Fastify to await
  then<A = unknown, B = never>(
    onValue?: ((value: unknown) => A | PromiseLike<A>) | null,
    onError?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    const c = this.#c
    return this.#result.then((value) => {
      let answer: unknown
      try {
        answer = finish(c, value)
      } catch (error) {
        // the promise `then` returns is not Fastify's to watch: the failure goes to its callback
        if (onError) return onError(error)
        throw error
      }
      return (onValue ? onValue(answer) : answer) as A
    }, onError)
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/**
 * Builds one Fastify handler from a chain of functions. Each gets the request's `Ctx`; `c.next()`
 * runs the next one. Response state set on `c` is sent once, when the chain settles; a function
 * may also return a value, which is sent as in plain Fastify.
 *
 * @example
 * ```ts
 * const requireAdmin: Handler = (c) => (c.get('x-role') === 'admin' ? c.next() : c.sendStatus(403))
 * app.get('/admin', handle(requireAdmin, (c) => c.sendString('ok')))
 * ```
 */
export function handle(...fns: Handler[]): WeftHandler {
  if (fns.length === 0) throw new TypeError('handle() needs at least one function')
  const chain = Object.freeze([...fns])
  const handler = function weftHandler(request: FastifyRequest, reply: FastifyReply): PromiseLike<unknown> {
    const c = ctx(request, reply)
    // a coded body is being decoded off the event loop: the chain's body() finds it done
    const pending = c._received?.decoding
    if (pending !== undefined) return pending.then(() => run(c, chain))
    // a function that throws reaches Fastify's error handler, as a plain handler's throw does
    return run(c, chain)
  }
  return Object.assign(handler, { [kChain]: chain }) as WeftHandler
}
