import type { FastifyRequest } from 'fastify'
import { type CtxBase, type CtxHandler, routingOf } from './ctx-base.js'
import { RestartLoopError, RestartNotFoundError } from './errors.js'
import { finish } from './finish.js'
import { routeTableOf } from './routes.js'

/**
 * Dispatches the request again, by the context's (possibly overridden) method and path, to the
 * route the app's routes resolve it to: a `handle()` chain runs from its first function within the
 * same `Ctx` (response state kept); a plain Fastify handler is called with the same request and
 * reply (from a plain handler, it resolves to the buffered body: `return c.restartRouting()`). Route-level hooks and schemas of the new route do not run again. After
 * `maxRestarts` restarts of one request it throws a `WEFT_RESTART_LOOP` error.
 */
export async function restartRouting(c: CtxBase): Promise<unknown> {
  const max = c._opts.maxRestarts
  const routing = routingOf(c)
  if (++routing.restarts > max) throw new RestartLoopError(max)
  const method = routing.method ?? c._req.method
  const url = routing.path ?? c._req.url
  const path = url.includes('?') ? url.slice(0, url.indexOf('?')) : url
  const found = routeTableOf(c._req.server)?.find(method, path)
  if (found === undefined) throw new RestartNotFoundError(method, path.slice(0, 256))
  ;(c._req as { params: unknown }).params = found.params
  routing.route = found.entry
  const chain = found.entry.chain as readonly CtxHandler<never>[] | undefined
  if (chain !== undefined) {
    const insideChain = c._chain !== undefined
    c._chain = chain
    c._index = 0
    const result = await (chain[0] as CtxHandler<CtxBase>)(c)
    // called from a plain handler: it returns what the new chain buffered, for Fastify to send
    return insideChain ? result : finish(c, result)
  }
  const handler = found.entry.handler as (this: unknown, request: FastifyRequest, reply: unknown) => unknown
  return handler.call(c._req.server, c._req, c._res)
}
