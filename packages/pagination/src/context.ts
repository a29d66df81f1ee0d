import { AsyncLocalStorage } from 'node:async_hooks'
import type { IncomingMessage } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { PageInfo } from './page-info.js'

/** @internal Where the hook stores a request's PageInfo: on the raw `IncomingMessage`. */
export const kPageInfo = Symbol.for('weft.pagination.pageInfo')

/** @internal The PageInfo of the request being handled, for `fromContext()` without argument. */
export const currentPageInfo = new AsyncLocalStorage<PageInfo>()

let asyncContextUsed = false
let warned = false

/** @internal Called by `paginate` when a config turns `asyncContext` on. */
export function useAsyncContext(): void {
  asyncContextUsed = true
}

function currentOrWarn(): PageInfo | undefined {
  if (!asyncContextUsed && !warned) {
    warned = true
    process.emitWarning(
      'fromContext() without argument finds nothing unless paginate() runs with asyncContext: true; pass the request instead',
      { code: 'WEFT_PAGINATION_NO_ASYNC_CONTEXT' },
    )
  }
  return currentPageInfo.getStore()
}

/** Anything shaped like a `@weft/context` Ctx: `request()` returns the Fastify request. */
export interface RequestContextLike {
  request(): { raw: IncomingMessage }
}

/** What `fromContext` accepts (the framework's request or reply, a `@weft/context` `Ctx`, the raw request, or the current request). */
export type PageInfoSource = FastifyRequest | FastifyReply | RequestContextLike | IncomingMessage

type Holder = { [kPageInfo]?: PageInfo }

/**
 * The PageInfo the hook stored for a request, or `undefined` when the hook did not run for it
 * (not installed, or skipped by `next`). Without argument it returns the current request's,
 * through `AsyncLocalStorage`, when the hook runs with `asyncContext: true` (it warns once
 * otherwise).
 *
 * @example
 * ```ts
 * const page = fromContext(request)       // or fromContext(reply), fromContext(ctx),
 * const same = fromContext(request.raw)   // or fromContext() inside the handler
 * ```
 */
export function fromContext(source?: PageInfoSource): PageInfo | undefined {
  if (source === undefined || source === null) return currentOrWarn()
  const candidate = source as { request?: unknown; raw?: unknown } & Holder
  const request = candidate.request
  if (typeof request === 'function')
    return ((request as () => { raw?: Holder }).call(source).raw as Holder)?.[kPageInfo]
  if (request !== undefined && request !== null) return ((request as { raw?: Holder }).raw as Holder)?.[kPageInfo]
  if (candidate[kPageInfo] !== undefined) return candidate[kPageInfo]
  return (candidate.raw as Holder | undefined)?.[kPageInfo]
}
