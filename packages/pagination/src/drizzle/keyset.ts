import { type Column, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { SortOrder } from '../sort.js'
import { type ExactKind, exactParam } from './values.js'

/** Where rows with a null sort value go. */
export type NullsPlacement = 'first' | 'last'

/** One column of the effective ordering, with its cursor value when in cursor mode. */
export interface KeyPart {
  column: Column
  order: SortOrder
  value?: unknown
  /** Set for types whose cursor value is exact text (timestamps, numeric, bigint), cast back in SQL. */
  exact?: ExactKind | undefined
  /** When set, the value goes into SQL as this drizzle placeholder (filled by `.execute()`), not inline. */
  placeholder?: string | undefined
}

function param(part: KeyPart): SQL {
  const value = part.placeholder === undefined ? part.value : sql.placeholder(part.placeholder)
  if (part.exact !== undefined) return exactParam(part.exact, value as string | Placeholder)
  // A placeholder in a Param is mapped through the column's encoder when `.execute()` fills it.
  return sql`${sql.param(value, part.column)}`
}

/** `ORDER BY` terms; nullable columns get an explicit `NULLS FIRST|LAST` matching the keyset. */
export function orderByOf(parts: readonly KeyPart[], nulls: NullsPlacement): SQL[] {
  return parts.map(({ column, order }) => {
    const direction = order === 'desc' ? sql`desc` : sql`asc`
    if (column.notNull) return sql`${column} ${direction}`
    return nulls === 'first' ? sql`${column} ${direction} nulls first` : sql`${column} ${direction} nulls last`
  })
}

function equalTo(part: KeyPart): SQL {
  return part.value === null ? sql`${part.column} is null` : sql`${part.column} = ${param(part)}`
}

/** Rows strictly after the cursor value in this column's order; `undefined` when none can be. */
function after(part: KeyPart, nulls: NullsPlacement): SQL | undefined {
  const { column } = part
  if (part.value === null) return nulls === 'first' ? sql`${column} is not null` : undefined
  const beyond = part.order === 'desc' ? sql`${column} < ${param(part)}` : sql`${column} > ${param(part)}`
  return !column.notNull && nulls === 'last' ? sql`(${beyond} or ${column} is null)` : beyond
}

/**
 * The keyset condition "after the cursor row". When every column is NOT NULL and sorted the same
 * way it is a row comparison `(a, b, id) > ($1, $2, $3)`, which an index on those columns serves;
 * otherwise the expanded form `a > $1 or (a = $1 and (b > $2 or (b = $2 and id > $3)))` with
 * null-aware comparisons. The last part must be the unique tie-breaker.
 */
export function keysetWhere(parts: readonly KeyPart[], nulls: NullsPlacement): SQL {
  const first = parts[0]
  if (first !== undefined && parts.every((p) => p.column.notNull && p.order === first.order)) {
    const columns = sql.join(
      parts.map((p) => sql`${p.column}`),
      sql`, `,
    )
    const values = sql.join(parts.map(param), sql`, `)
    return first.order === 'desc' ? sql`(${columns}) < (${values})` : sql`(${columns}) > (${values})`
  }
  let condition: SQL | undefined
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as KeyPart
    const beyond = after(part, nulls)
    const tied = condition === undefined ? undefined : sql`${equalTo(part)} and ${condition}`
    if (beyond === undefined) condition = tied === undefined ? undefined : sql`(${tied})`
    else condition = tied === undefined ? beyond : sql`(${beyond} or (${tied}))`
  }
  return condition ?? sql`false`
}
