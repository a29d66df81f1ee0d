import type { FastifyReply, FastifyRequest } from 'fastify'
import { type PaginationConfig, resolveConfig } from './config.js'
import { currentPageInfo, fromContext, kPageInfo, type PageInfoSource, useAsyncContext } from './context.js'
import { PageInfoMissingError } from './errors.js'
import { kConfig, kForeign, kTarget, type PageInfo } from './page-info.js'
import { parsePageInfo } from './parse.js'
import { foreignPrefix } from './request-target.js'

/**
 * A callback-style Fastify hook, usable as `onRequest` or `preHandler`, with the typed accessor of
 * the PageInfo it stores.
 */
export type PaginationHook<S extends string = string> = ((
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
) => void) & {
  /**
   * The PageInfo this hook stored for the request (from the same sources as the package's
   * `fromContext`), typed by the hook's config: never `undefined`, since a request this hook did
   * not run for (a route without it, or one its `next` skipped) is the app's mistake and throws a
   * 500 `PageInfoMissingError` (`WEFT_PAGINATION_MISSING`).
   */
  fromContext(source?: PageInfoSource): PageInfo<S>
}

/**
 * Creates the pagination hook (Fiber: `New(config...)`). The config is resolved once here; per
 * request the hook parses the query, stores the PageInfo for `fromContext`, and answers 400 for
 * a bad cursor (or, with `strict`, bad numbers) through the app's error handler.
 *
 * @example
 * ```ts
 * const paging = paginate({ sortKey: 'sort', allowedSorts: ['id', 'price'] })
 * app.get('/products', { onRequest: paging }, async (request) => {
 *   const page = paging.fromContext(request) // PageInfo<'id' | 'price'>, never undefined
 *   return listProducts(page)
 * })
 * ```
 */
export function paginate<const S extends string = string>(config?: PaginationConfig<S>): PaginationHook<S> {
  const resolved = resolveConfig(config)
  const { next, asyncContext } = resolved
  if (asyncContext) useAsyncContext()
  const hook: PaginationHook<S> = function weftPaginate(request, _reply, done) {
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
    info[kTarget] = request.url
    ;(request.raw as { [kPageInfo]?: unknown })[kPageInfo] = info
    if (asyncContext) currentPageInfo.run(info, done)
    else done()
  }
  hook.fromContext = (source) => {
    const info = fromContext(source)
    // only what this hook made has the fields its config allows
    if (info === undefined || info[kConfig] !== resolved) throw new PageInfoMissingError()
    return info as PageInfo<S>
  }
  return hook
}
