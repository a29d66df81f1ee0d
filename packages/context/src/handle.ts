import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Ctx } from './ctx.js'
import { ctx } from './ctx-slot.js'
import { finish } from './finish.js'
import { kChain } from './symbols.js'

/** A function of a `handle()` chain: gets the `Ctx`, may call `c.next()`, may return a value to send. */
export type Handler = (c: Ctx) => unknown

/** A Fastify route handler built by `handle()`. */
export type WeftHandler = ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) & {
  readonly [kChain]: readonly Handler[]
}

// Not an async function: a chain that settles synchronously (`(c) => c.sendString('hi')`) is
// finished at once, without the extra promise and microtask turns of `await`.
function run(c: Ctx, chain: readonly Handler[]): Promise<unknown> {
  c._chain = chain
  c._index = 0
  let result: unknown
  try {
    result = (chain[0] as Handler)(c)
    if (!isThenable(result)) return Promise.resolve(finish(c, result))
  } catch (error) {
    return Promise.reject(error)
  }
  return Promise.resolve(result).then((value) => finish(c, value))
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
  const handler = function weftHandler(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const c = ctx(request, reply)
    // a coded body is being decoded off the event loop: the chain's body() finds it done
    const pending = c._received?.decoding
    if (pending !== undefined) return pending.then(() => run(c, chain))
    return run(c, chain)
  }
  return Object.assign(handler, { [kChain]: chain }) as WeftHandler
}
