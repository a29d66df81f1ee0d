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

/**
 * The null flag of a nullable column in the ordering `nullFlags` asks for, and its value for a null:
 * `num_nulls(column)` (1 for a null) when the null rows come after the values in the column's own
 * direction (ascending with nulls last, descending with nulls first), else `num_nonnulls(column)`
 * (0 for a null), so that the flag sorts in the column's direction. Functions, not `column is null`:
 * PostgreSQL would match `column is null` in a condition to a first index term `(column is null)`
 * only, never to the column's own term, and the rows after a null cursor value would not be one
 * index range.
 */
function nullFlag(part: KeyPart, nulls: NullsPlacement): { flag: SQL; whenNull: 0 | 1 } {
  const nullsAfter = (part.order === 'asc') === (nulls === 'last')
  return nullsAfter
    ? { flag: sql`num_nulls(${part.column})`, whenNull: 1 }
    : { flag: sql`num_nonnulls(${part.column})`, whenNull: 0 }
}

/**
 * `ORDER BY` terms. Nullable columns get an explicit `NULLS FIRST|LAST` matching the keyset, or
 * with `nullFlags` their null flag first (the same order, in terms an expression index can serve).
 */
export function orderByOf(parts: readonly KeyPart[], nulls: NullsPlacement, nullFlags = false): SQL[] {
  return parts.flatMap((part) => {
    const { column, order } = part
    const direction = order === 'desc' ? sql`desc` : sql`asc`
    if (column.notNull) return [sql`${column} ${direction}`]
    if (nullFlags) return [sql`${nullFlag(part, nulls).flag} ${direction}`, sql`${column} ${direction}`]
    return [nulls === 'first' ? sql`${column} ${direction} nulls first` : sql`${column} ${direction} nulls last`]
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
 * The keyset condition "after the cursor row": one row comparison when rangeWhere can write it,
 * otherwise the expanded form `a > $1 or (a = $1 and (b > $2 or (b = $2 and id > $3)))` with
 * null-aware comparisons. The last part must be the unique tie-breaker.
 */
export function keysetWhere(parts: readonly KeyPart[], nulls: NullsPlacement, nullFlags = false): SQL {
  return rangeWhere(parts, nulls, nullFlags) ?? expandedWhere(parts, nulls)
}

function rowComparison(terms: SQL[], values: SQL[], order: KeyPart['order']): SQL {
  const columns = sql.join(terms, sql`, `)
  const row = sql.join(values, sql`, `)
  return order === 'desc' ? sql`(${columns}) < (${row})` : sql`(${columns}) > (${row})`
}

/**
 * The condition as one index range, when every column goes the same way: a row comparison
 * `(a, b, id) > ($1, $2, $3)`, which an index on those columns serves. Nullable columns can be in
 * it only with null flags: the ordering is then (flag, column) for each, and an expression index on
 * the same terms, such as `(num_nulls(price), price, id)`, holds the rows in that order; after a
 * cursor whose values are not null the comparison is `(num_nulls(price), price, id) > (0, $1, $2)`
 * (a null row differs in its flag, which decides). Cursor values that are null stand first in the
 * sort when nulls come last: the rows after are those null too (`num_nulls(price) = 1 and price is
 * null`, equalities on the index's first terms) and after the cursor in the other columns.
 * Other shapes (mixed directions, nullable columns without flags, a null after a value, a null
 * value with nulls first) are `undefined`: the expanded form.
 */
function rangeWhere(parts: readonly KeyPart[], nulls: NullsPlacement, nullFlags: boolean): SQL | undefined {
  const first = parts[0]
  if (first === undefined || !parts.every((p) => p.order === first.order)) return undefined
  if (!nullFlags && !parts.every((p) => p.column.notNull)) return undefined
  // (a NOT NULL column's cursor value is never null: values.ts refuses such a cursor)
  let leadingNulls = 0
  while (leadingNulls < parts.length && (parts[leadingNulls] as KeyPart).value === null) leadingNulls++
  if (leadingNulls > 0 && nulls !== 'last') return undefined
  const rest = parts.slice(leadingNulls)
  if (rest.length === 0 || rest.some((p) => p.value === null)) return undefined
  const equalities = parts.slice(0, leadingNulls).map((part) => {
    const { flag, whenNull } = nullFlag(part, nulls)
    return sql`${flag} = ${sql.raw(String(whenNull))} and ${part.column} is null`
  })
  const terms: SQL[] = []
  const values: SQL[] = []
  for (const part of rest) {
    if (!part.column.notNull) {
      const { flag, whenNull } = nullFlag(part, nulls)
      terms.push(flag)
      // the cursor's value is not null: the flag of a row with a value
      values.push(sql.raw(String(1 - whenNull)))
    }
    terms.push(sql`${part.column}`)
    values.push(param(part))
  }
  const comparison = rowComparison(terms, values, first.order)
  // in parentheses, as the expanded form is: an `or` the app writes around it stays the app's
  return equalities.length === 0 ? comparison : sql`(${sql.join([...equalities, comparison], sql` and `)})`
}

/** The null-aware expanded form, for any columns, directions and cursor values. */
function expandedWhere(parts: readonly KeyPart[], nulls: NullsPlacement): SQL {
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
