import { createHash } from 'node:crypto'
import { type Column, getTableName, type SQL, sql } from 'drizzle-orm'
import { CursorInvalidError } from '../errors.js'
import type { PageInfo } from '../page-info.js'
import { type KeyPart, keysetWhere, type NullsPlacement, orderByOf } from './keyset.js'
import { exactFromRow, exactKindOf, exactTextOf, reviveValue, serializeValue } from './values.js'

/** Result key of `q.select`: the exact text of the sort values, read by `finish` and removed from the rows. */
export const CURSOR_SELECT_KEY = 'weftCursor'

/** Names of `where`'s placeholders (`options.placeholders`): this and the sort key's index. */
const PLACEHOLDER_PREFIX = 'weftKey'

/** Token key of the ordering signature (fields, column types, directions, null placement). */
export const CURSOR_TYPES_KEY = '$types'

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
  /**
   * Order each nullable sort column by whether it is null first, `num_nulls(price), price` (the
   * same order), so that an expression index on those terms and the unique column, such as
   * `(num_nulls(price), price, id)`, serves its cursor pages as one index range at any depth (the
   * README lists the index for each direction). Default `false`: `price nulls last`, which a plain
   * `(price, id)` index serves for first and offset pages only.
   */
  nullFlags?: boolean
  /**
   * Put the cursor values into `where` as drizzle placeholders, their values in `q.placeholders`,
   * so one prepared statement per `q.shape` serves every cursor. Default `false` (values inline).
   */
  placeholders?: boolean
}

/** The parts of a drizzle query for one page, and `finish` for its rows. */
export interface PaginatedQuery {
  /**
   * Extra selection for the exact cursor values (timestamps keep microseconds, numeric and bigint
   * every digit): spread it into the select, `db.select({ ...getTableColumns(table), ...q.select })`.
   */
  select: { [CURSOR_SELECT_KEY]: SQL<string> }
  /** Keyset condition in cursor mode (combine with your filters via `and`); `undefined` otherwise. */
  where: SQL | undefined
  /**
   * Identifies the SQL of `select`, `where` and `orderBy` (sort columns and directions, null
   * placement, `nullFlags`, cursor mode and which cursor values are null): queries of equal shape differ only in
   * `placeholders`, so with `placeholders: true` one prepared statement per shape serves them all.
   */
  shape: string
  /**
   * With `placeholders: true` in cursor mode, the values of the placeholders in `where`, for
   * `.execute({ ...q.placeholders, ... })`; otherwise empty.
   */
  placeholders: Record<string, unknown>
  /** `ORDER BY` terms: the request's sort, then the unique column. Spread into `.orderBy(...)`. */
  orderBy: SQL[]
  /** `page.limit + 1`: the extra row tells whether more follow. */
  limit: number
  /** `page.start()` (0 in cursor mode). */
  offset: number
  /**
   * Takes the fetched rows, sets `hasMore` and, in cursor mode, the next cursor (from the last
   * returned row) on the PageInfo, and returns at most `page.limit` rows, without `q.select`'s key.
   */
  finish<Row extends object>(rows: readonly Row[]): Omit<Row, typeof CURSOR_SELECT_KEY>[]
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
    if (field === CURSOR_TYPES_KEY) throw new Error(`@weft/pagination/drizzle: "${field}" is reserved`)
    if (parts.some((p) => p.field === field)) continue
    parts.push({ field, order, ...lookup(field) })
    if (field === options.unique) return parts
  }
  parts.push({ field: options.unique, order: parts[0]?.order ?? 'asc', ...lookup(options.unique) })
  return parts
}

/**
 * A digest of what a cursor's values mean: each field's column (table, name, type, nullability; the
 * column also stands for its collation, which drizzle does not know) and direction, and where nulls
 * go. A token replayed on another column, type or ordering then fails this check (400) instead of
 * starting at a meaningless position.
 */
function signatureOf(parts: readonly Resolved[], nulls: NullsPlacement): string {
  let text = nulls
  for (const { field, column, order } of parts) {
    const where = JSON.stringify([field, getTableName(column.table), column.name, column.getSQLType(), column.notNull])
    text += `|${where}:${order}`
  }
  return createHash('sha256').update(text).digest().subarray(0, 9).toString('base64url')
}

/** Copies of the rows without `q.select`'s key (rows that lack it are returned as they are). */
function withoutCursorKey<Row extends object>(rows: readonly Row[]): Omit<Row, typeof CURSOR_SELECT_KEY>[] {
  return rows.map((row) => {
    if (!(CURSOR_SELECT_KEY in row)) return row
    const { [CURSOR_SELECT_KEY]: _, ...rest } = row as Record<string, unknown>
    return rest as Omit<Row, typeof CURSOR_SELECT_KEY>
  })
}

/**
 * Turns a PageInfo into drizzle `orderBy`, `limit`, `offset` and, in cursor mode, a keyset
 * `where`; `finish(rows)` then sets the next cursor from the last row.
 *
 * @example
 * ```ts
 * const page = paging.fromContext(request) // the paginate() hook of the route
 * const q = paginateQuery(page, { columns: { id: products.id, price: products.price }, unique: 'id' })
 * const rows = await db.select().from(products).where(q.where).orderBy(...q.orderBy).limit(q.limit).offset(q.offset)
 * return { data: q.finish(rows), ...page.toJSON() }
 * ```
 */
export function paginateQuery<Field extends string, Sorted extends string = Field>(
  page: PageInfo<Sorted>,
  // a page typed by `paginate({ allowedSorts })` needs a column for each field it may sort by
  options: PaginateQueryOptions<Field> & { columns: Record<NoInfer<Sorted>, SortColumn> },
): PaginatedQuery {
  const parts = resolveParts(page, options)
  const nulls = options.nulls ?? 'last'
  const nullFlags = options.nullFlags === true
  const exactParts: Resolved[] = []
  for (const part of parts) {
    part.exact = exactKindOf(part.column)
    if (part.exact !== undefined) exactParts.push(part)
  }
  const signature = signatureOf(parts, nulls)
  let where: SQL | undefined
  // the flags change the SQL of orderBy and where, not the order: tokens stay valid across them
  let shape = nullFlags ? `${signature}~` : signature
  const placeholders: Record<string, unknown> = {}
  if (page.mode === 'cursor' && page.cursor !== '') {
    const values = page.cursorValues()
    const types = values[CURSOR_TYPES_KEY]
    if (types !== undefined && types !== signature) {
      throw new CursorInvalidError('it was issued for other sort fields, column types or order')
    }
    // The expanded form differs where a value is null (`is null`, no parameter): part of the shape.
    shape += '>'
    parts.forEach((part, i) => {
      part.value = reviveValue(part.column, part.field, values)
      shape += part.value === null ? '0' : '1'
      if (options.placeholders !== true || part.value === null) return
      part.placeholder = `${PLACEHOLDER_PREFIX}${i}`
      placeholders[part.placeholder] = part.value
    })
    where = keysetWhere(parts, nulls, nullFlags)
  }
  const exactTexts = exactParts.map((part) => exactTextOf(part.column, part.exact!))
  const select = {
    [CURSOR_SELECT_KEY]:
      exactTexts.length === 0
        ? sql<string>`'[]'`
        : sql<string>`json_build_array(${sql.join(exactTexts, sql`, `)})::text`,
  }
  const limit = page.limit
  return {
    select,
    where,
    shape,
    placeholders,
    orderBy: orderByOf(parts, nulls, nullFlags),
    limit: limit + 1,
    offset: page.start(),
    finish<Row extends object>(rows: readonly Row[]): Omit<Row, typeof CURSOR_SELECT_KEY>[] {
      const more = rows.length > limit
      const kept = withoutCursorKey(more ? rows.slice(0, limit) : rows)
      page.nextCursor = ''
      page.hasMore = more
      if (!more || page.mode !== 'cursor') return kept
      const last = rows[limit - 1] as Record<string, unknown>
      const exact =
        typeof last[CURSOR_SELECT_KEY] === 'string' ? (JSON.parse(last[CURSOR_SELECT_KEY]) as unknown[]) : undefined
      const next: Record<string, unknown> = {}
      for (const part of parts) {
        const index = exactParts.indexOf(part)
        if (index === -1) next[part.field] = serializeValue(last[part.key])
        else if (exact !== undefined) next[part.field] = exact[index] ?? null
        else next[part.field] = exactFromRow(part.column, part.exact!, part.field, last[part.key])
      }
      next[CURSOR_TYPES_KEY] = signature
      page.setNextCursor(next)
      return kept
    },
  }
}
