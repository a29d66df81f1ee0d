import type { FastifyRequest } from 'fastify'
import { type CtxBase, type CtxHandler, routingOf } from './ctx-base.js'
import { RestartLoopError, RestartNotFoundError } from './errors.js'
import { finish } from './finish.js'
import { runRouteHooks } from './restart-hooks.js'
import { routeTableOf } from './routes.js'

/**
 * Dispatches the request again, by the context's (possibly overridden) method and path, to the
 * route the app's routes resolve it to: a `handle()` chain runs from its first function within the
 * same `Ctx` (response state kept); a plain Fastify handler is called with the same request and
 * reply (from a plain handler, it resolves to the buffered body: `return c.restartRouting()`).
 * First, the request hooks of the new route that have not run for this request run (its own and
 * its plugin's: an auth hook can answer, and then the handler does not run); its schemas are not
 * applied. After `maxRestarts` restarts of one request it throws a `WEFT_RESTART_LOOP` error.
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
  const insideChain = c._chain !== undefined
  if (await runRouteHooks(c._req, c._res, method, found.entry.url)) {
    // a hook answered: what the caller returns (the reply) tells Fastify not to send again
    return insideChain ? c._res : finish(c, c._res)
  }
  const chain = found.entry.chain as readonly CtxHandler<never>[] | undefined
  if (chain !== undefined) {
    c._chain = chain
    c._index = 0
    const result = await (chain[0] as CtxHandler<CtxBase>)(c)
    // called from a plain handler: it returns what the new chain buffered, for Fastify to send
    return insideChain ? result : finish(c, result)
  }
  const handler = found.entry.handler as (this: unknown, request: FastifyRequest, reply: unknown) => unknown
  return handler.call(c._req.server, c._req, c._res)
}
