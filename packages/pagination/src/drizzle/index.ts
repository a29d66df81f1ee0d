export type { NullsPlacement } from './keyset.js'
export { type PaginatedQuery, type PaginateQueryOptions, paginateQuery, type SortColumn } from './query.js'
