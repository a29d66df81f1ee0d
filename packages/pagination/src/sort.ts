import type { ResolvedConfig } from './config.js'

/** Direction of one sort field. */
export type SortOrder = 'asc' | 'desc'

/**
 * One entry of `PageInfo.sort`. `F` is the names a field may have: the `allowedSorts` of a
 * `paginate()` config given as literals, else `string`.
 */
export interface SortField<F extends string = string> {
  field: F
  order: SortOrder
}

/** Most sort items a request may carry; the rest of the list is not read. */
export const MAX_SORT_FIELDS = 8

/** The sort used when the request asks for nothing allowed. */
export const defaultSortOf = (config: ResolvedConfig): SortField[] => [{ field: config.defaultSort, order: 'asc' }]

// A loop, not `sort.some(...)`: no closure per item on the request path.
function includesField(sort: readonly SortField[], field: string): boolean {
  for (const item of sort) if (item.field === field) return true
  return false
}

/**
 * Parses `sort=-price,name`: items trimmed, empty items and a bare `-` skipped, `-` = desc, only
 * allowed fields kept (first occurrence wins). Scans by hand so a long list costs at most 8 items.
 */
export function parseSort(raw: string | undefined, config: ResolvedConfig): SortField[] {
  const allowed = config.allowedSorts
  if (raw === undefined || raw === '' || allowed === undefined) return defaultSortOf(config)
  // made with its first item: an array pushed to from empty reserves room for 17 (bench/RESULTS.md)
  let sort: SortField[] | undefined
  let read = 0
  let start = 0
  while (start <= raw.length && read < MAX_SORT_FIELDS) {
    let end = raw.indexOf(',', start)
    if (end === -1) end = raw.length
    const item = raw.slice(start, end).trim()
    start = end + 1
    if (item === '' || item === '-') continue
    read++
    const desc = item.charCodeAt(0) === 45 /* - */
    const field = desc ? item.slice(1) : item
    if (!allowed.has(field)) continue
    const entry: SortField = { field, order: desc ? 'desc' : 'asc' }
    if (sort === undefined) sort = [entry]
    else if (!includesField(sort, field)) sort.push(entry)
  }
  return sort ?? defaultSortOf(config)
}
