export type { PaginationConfig } from './config.js'
export { fromContext, type PageInfoSource, type RequestContextLike } from './context.js'
export type { CursorValues } from './cursor.js'
export {
  CursorInvalidError,
  CursorTooLongError,
  MAX_CURSOR_LENGTH,
  PageInfoMissingError,
  PaginationError,
  PaginationInvalidError,
} from './errors.js'
export { type FetchPageOptions, fetchPage, type PageAnswer, type PageQuery } from './fetch-page.js'
export { type PaginationHook, paginate } from './hook.js'
export { PageInfo, type PageInfoInit, type PageInfoJSON, type PageLinks, type PagingMode } from './page-info.js'
export { type WeftPaginationOptions, weftPagination } from './plugin.js'
export {
  type JsonSchema,
  pageAnswerSchema,
  pageInfoSchema,
  pageLinksSchema,
  paginationQuerySchema,
} from './schemas.js'
export type { SortField, SortOrder } from './sort.js'
