import type { FastifyReply, FastifyRequest } from 'fastify'
import { type PaginationConfig, resolveConfig } from './config.js'
import { currentPageInfo, kPageInfo, useAsyncContext } from './context.js'
import { kForeign } from './page-info.js'
import { parsePageInfo } from './parse.js'
import { foreignPrefix } from './request-target.js'

/** A callback-style Fastify hook, usable as `onRequest` or `preHandler`. */
export type PaginationHook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void

/**
 * Creates the pagination hook (seed: `New(config...)`). The config is resolved once here; per
 * request the hook parses the query, stores the PageInfo for `fromContext`, and answers 400 for
 * a bad cursor (or, with `strict`, bad numbers) through the app's error handler.
 *
 * @example
 * ```ts
 * app.get('/products', { onRequest: paginate({ sortKey: 'sort', allowedSorts: ['id', 'price'] }) },
 *   async (request) => listProducts(fromContext(request)!))
 * ```
 */
export function paginate(config?: PaginationConfig): PaginationHook {
  const resolved = resolveConfig(config)
  const { next, asyncContext } = resolved
  if (asyncContext) useAsyncContext()
  return function weftPaginate(request, _reply, done) {
    if (next?.(request)) {
      done()
      return
    }
    let info: ReturnType<typeof parsePageInfo>
    try {
      info = parsePageInfo(request.query as Record<string, unknown>, resolved)
    } catch (error) {
      done(error as Error)
      return
    }
    // links built from the request URL keep only its path and query (absolute-form targets)
    info[kForeign] = foreignPrefix(request.raw.url ?? '') || foreignPrefix(request.originalUrl ?? '')
    ;(request.raw as { [kPageInfo]?: unknown })[kPageInfo] = info
    if (asyncContext) currentPageInfo.run(info, done)
    else done()
  }
}
