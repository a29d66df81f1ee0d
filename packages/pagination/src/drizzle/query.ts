import type { Column, SQL } from 'drizzle-orm'
import type { PageInfo } from '../page-info.js'
import { type KeyPart, keysetWhere, type NullsPlacement, orderByOf } from './keyset.js'
import { reviveValue, serializeValue } from './values.js'

/** A sortable field: its column, and the row property holding its value when that is not the field name. */
export type SortColumn = Column | { column: Column; key: string }

/**
 * Options of `paginateQuery`.
 *
 * @example
 * ```ts
 * { columns: { id: products.id, price: products.price, created: { column: products.createdAt, key: 'createdAt' } },
 *   unique: 'id' }
 * ```
 */
export interface PaginateQueryOptions<Field extends string> {
  /** Sort field name (as in `allowedSorts`) → column. Every field a request may sort by must be here. */
  columns: Record<Field, SortColumn>
  /** Field of a unique, NOT NULL column appended as the last sort key so ties never repeat or skip rows. */
  unique: NoInfer<Field>
  /** Where null sort values go, in both directions. Default `'last'`. */
  nulls?: NullsPlacement
}

/** The parts of a drizzle query for one page, and `finish` for its rows. */
export interface PaginatedQuery {
  /** Keyset condition in cursor mode (combine with your filters via `and`); `undefined` otherwise. */
  where: SQL | undefined
  /** `ORDER BY` terms: the request's sort, then the unique column. Spread into `.orderBy(...)`. */
  orderBy: SQL[]
  /** `page.limit + 1`: the extra row tells whether more follow. */
  limit: number
  /** `page.start()` (0 in cursor mode). */
  offset: number
  /**
   * Takes the fetched rows, sets `hasMore` and the next cursor (from the last returned row) on the
   * PageInfo, and returns at most `page.limit` rows.
   */
  finish<Row extends object>(rows: readonly Row[]): Row[]
}

interface Resolved extends KeyPart {
  field: string
  key: string
}

function resolveParts<Field extends string>(page: PageInfo, options: PaginateQueryOptions<Field>): Resolved[] {
  const columns = options.columns as Record<string, SortColumn | undefined>
  const lookup = (field: string) => {
    const entry = columns[field]
    if (entry === undefined) throw new Error(`@weft/pagination/drizzle: sort field "${field}" has no column`)
    return 'key' in entry && 'column' in entry ? entry : { column: entry, key: field }
  }
  const parts: Resolved[] = []
  for (const { field, order } of page.sort) {
    if (parts.some((p) => p.field === field)) continue
    parts.push({ field, order, ...lookup(field) })
    if (field === options.unique) return parts
  }
  parts.push({ field: options.unique, order: parts[0]?.order ?? 'asc', ...lookup(options.unique) })
  return parts
}

/**
 * Turns a PageInfo into drizzle `orderBy`, `limit`, `offset` and, in cursor mode, a keyset
 * `where`; `finish(rows)` then sets the next cursor from the last row.
 *
 * @example
 * ```ts
 * const page = fromContext(request)!
 * const q = paginateQuery(page, { columns: { id: products.id, price: products.price }, unique: 'id' })
 * const rows = await db.select().from(products).where(q.where).orderBy(...q.orderBy).limit(q.limit).offset(q.offset)
 * return { data: q.finish(rows), ...page.toJSON() }
 * ```
 */
export function paginateQuery<Field extends string>(
  page: PageInfo,
  options: PaginateQueryOptions<Field>,
): PaginatedQuery {
  const parts = resolveParts(page, options)
  const nulls = options.nulls ?? 'last'
  let where: SQL | undefined
  if (page.cursor !== '') {
    const values = page.cursorValues()
    for (const part of parts) part.value = reviveValue(part.column, part.field, values)
    where = keysetWhere(parts, nulls)
  }
  const limit = page.limit
  return {
    where,
    orderBy: orderByOf(parts, nulls),
    limit: limit + 1,
    offset: page.start(),
    finish<Row extends object>(rows: readonly Row[]): Row[] {
      if (rows.length <= limit) {
        page.hasMore = false
        page.nextCursor = ''
        return rows.slice()
      }
      const last = rows[limit - 1] as Record<string, unknown>
      const next: Record<string, unknown> = {}
      for (const part of parts) next[part.field] = serializeValue(last[part.key])
      page.setNextCursor(next)
      return rows.slice(0, limit)
    },
  }
}
