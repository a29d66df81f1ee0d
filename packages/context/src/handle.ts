import type { FastifyReply, FastifyRequest } from 'fastify'
import { decoding } from './body.js'
import { Ctx } from './ctx.js'
import { finish } from './finish.js'
import { defaultOptions, type ResolvedOptions } from './options.js'
import { kChain, kCtx, kOptions } from './symbols.js'

type CtxCarrier = FastifyRequest & { [kCtx]?: Ctx }

/** A function of a `handle()` chain: gets the `Ctx`, may call `c.next()`, may return a value to send. */
export type Handler = (c: Ctx) => unknown

/** A Fastify route handler built by `handle()`. */
export type WeftHandler = ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) & {
  readonly [kChain]: readonly Handler[]
}

type OptionsCarrier = { [kOptions]?: ResolvedOptions }

// The plugin's options, remembered for the last Fastify instance asked (one reference held):
// looking them up on the instance, inherited through its encapsulation prototypes, was one of
// the costlier steps of creating a `Ctx` (bench/RESULTS.md, "What (b) costs").
let lastServer: unknown
let lastOptions: ResolvedOptions = defaultOptions

function optionsOf(server: FastifyRequest['server']): ResolvedOptions {
  if (server !== lastServer) {
    lastOptions = (server as unknown as OptionsCarrier)[kOptions] ?? defaultOptions
    lastServer = server
  }
  return lastOptions
}

/** The `Ctx` of a request: created on first use, the same object afterwards. */
export function ctx(request: FastifyRequest, reply: FastifyReply): Ctx {
  const carrier = request as CtxCarrier
  let c = carrier[kCtx]
  if (c === undefined) {
    c = new Ctx(request, reply, optionsOf(request.server))
    carrier[kCtx] = c
  }
  return c
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
    // a coded body is being decoded off the event loop: the chain's body() finds it done
    const pending = decoding(request)
    if (pending !== undefined) return pending.then(() => run(ctx(request, reply), chain))
    return run(ctx(request, reply), chain)
  }
  return Object.assign(handler, { [kChain]: chain }) as WeftHandler
}
