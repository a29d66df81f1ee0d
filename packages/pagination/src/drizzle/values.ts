import { type Column, type Placeholder, type SQL, sql } from 'drizzle-orm'
import { CursorInvalidError } from '../errors.js'

/**
 * Column types whose JS value can lose what the database holds (a `Date` keeps milliseconds, a
 * timestamp keeps microseconds; a `number` rounds numeric and bigint values), so their cursor value is
 * the exact text PostgreSQL gives, selected next to the row, and goes back into SQL cast to the type.
 */
export type ExactKind = 'timestamptz' | 'timestamp' | 'date' | 'numeric' | 'bigint'

export function exactKindOf(column: Column): ExactKind | undefined {
  const type = column.getSQLType().toLowerCase()
  if (type.startsWith('timestamp')) return type.includes('with time zone') ? 'timestamptz' : 'timestamp'
  if (type === 'date') return 'date'
  if (type.startsWith('numeric') || type.startsWith('decimal')) return 'numeric'
  if (type === 'bigint' || type === 'bigserial') return 'bigint'
  return undefined
}

/**
 * SQL giving the exact, session-independent text of a column's value: ISO 8601 with all six
 * fractional digits in UTC for timestamps (not `::text`, whose form follows `DateStyle`/`TimeZone`).
 */
export function exactTextOf(column: Column, kind: ExactKind): SQL {
  switch (kind) {
    case 'timestamptz':
      return sql`case when isfinite(${column}) then to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') else ${column}::text end`
    case 'timestamp':
      return sql`case when isfinite(${column}) then to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.US') else ${column}::text end`
    case 'date':
      return sql`case when isfinite(${column}) then to_char(${column}, 'YYYY-MM-DD') else ${column}::text end`
    default:
      return sql`${column}::text`
  }
}

/** Fractional-second digits a timestamp column keeps (PostgreSQL's default is 6). */
function precisionOf(column: Column): number {
  const match = /\((\d)\)/.exec(column.getSQLType())
  return match ? Number(match[1]) : 6
}

/**
 * The cursor value of an exact-kind column taken from the row itself, for a query that did not
 * select `q.select`: only when the JS value cannot have lost anything. Throws (a server bug) otherwise.
 */
export function exactFromRow(column: Column, kind: ExactKind, field: string, value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (value instanceof Date && (kind === 'timestamptz' || kind === 'timestamp') && precisionOf(column) <= 3) {
    return kind === 'timestamptz' ? value.toISOString() : value.toISOString().slice(0, -1)
  }
  if (kind === 'date' && typeof value === 'string') return value
  if (kind === 'numeric' && typeof value === 'string') return value
  if (kind === 'bigint' && typeof value === 'bigint') return value.toString()
  if (kind === 'bigint' && Number.isSafeInteger(value)) return String(value)
  throw new Error(
    `@weft/pagination/drizzle: the rows lack the exact value of "${field}" (${column.getSQLType()}): select \`...q.select\` with the columns`,
  )
}

/** Turns a row's value into JSON for a cursor token (bigints as decimal strings). */
export function serializeValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return value.toString()
  return value === undefined ? null : value
}

const TIMESTAMP = /^(\d{4,6})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d):(\d\d)(?:\.\d{1,6})?(Z?))?$/
const NUMERIC = /^-?\d+(?:\.\d+)?$/
const INTEGER = /^-?\d+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const INT8_MIN = -(2n ** 63n)
const INT8_MAX = 2n ** 63n - 1n

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** Whether `y-m-d h:mi:s` is a real calendar instant PostgreSQL accepts without rolling over. */
function isCalendarDate(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[]
  if (year === undefined || month === undefined || day === undefined) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const days = month === 2 && leap ? 29 : (MONTH_DAYS[month - 1] ?? 0)
  return year >= 1 && day >= 1 && day <= days && (hour ?? 0) < 24 && (minute ?? 0) < 60 && (second ?? 0) < 60
}

/** The exact-kind text a cursor may carry for `kind`, or `undefined` when it is not one. */
function exactText(kind: ExactKind, value: unknown): string | undefined {
  switch (kind) {
    case 'timestamptz':
    case 'timestamp':
    case 'date': {
      if (value === 'infinity' || value === '-infinity') return value
      const match = typeof value === 'string' ? TIMESTAMP.exec(value) : null
      if (match === null || !isCalendarDate(match)) return undefined
      const hasTime = match[4] !== undefined
      // timestamptz needs its zone; a date carries no time (a legacy `toISOString()` midnight is fine).
      if (kind === 'timestamptz' && (!hasTime || match[7] !== 'Z')) return undefined
      if (kind === 'timestamp' && !hasTime) return undefined
      if (kind !== 'date') return value as string
      if (hasTime && !/T00:00:00(?:\.0+)?Z$/.test(value as string)) return undefined
      return `${match[1]}-${match[2]}-${match[3]}`
    }
    case 'numeric':
      if (typeof value === 'number')
        return Number.isFinite(value) && !/e/i.test(String(value)) ? String(value) : undefined
      if (typeof value !== 'string') return undefined
      return NUMERIC.test(value) || value === 'NaN' || value === 'Infinity' || value === '-Infinity' ? value : undefined
    case 'bigint': {
      const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value
      if (typeof text !== 'string' || text.length > 20 || !INTEGER.test(text)) return undefined
      const big = BigInt(text)
      return big >= INT8_MIN && big <= INT8_MAX ? big.toString() : undefined
    }
  }
}

/** A cursor value of an exact kind (or a placeholder for it), bound as text and cast back to the type in SQL. */
export function exactParam(kind: ExactKind, text: string | Placeholder): SQL {
  return sql`cast(${sql.param(text)} as ${sql.raw(kind)})`
}

/** Ranges of PostgreSQL's integer types: a cursor value outside them would be a database error. */
const INTEGER_RANGES: Record<string, readonly [number, number]> = {
  smallint: [-32768, 32767],
  smallserial: [-32768, 32767],
  integer: [-2147483648, 2147483647],
  serial: [-2147483648, 2147483647],
  bigint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  bigserial: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
}

/** Whether `value` fits `column`'s numeric SQL type (whole and in range for the integer types). */
function fitsNumber(column: Column, value: number): boolean {
  if (!Number.isFinite(value)) return false
  const type = column.getSQLType()
  // float4 input that rounds to 0 or overflows is an error in PostgreSQL.
  if (type === 'real') return value === 0 || (Math.fround(value) !== 0 && Number.isFinite(Math.fround(value)))
  const range = INTEGER_RANGES[type]
  return range === undefined || (Number.isInteger(value) && value >= range[0] && value <= range[1])
}

/** Text PostgreSQL can store and compare: well-formed UTF-16 (no lone surrogate) without NUL. */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const isStorableText = (value: string) => !UNSTORABLE.test(value)

/**
 * Reads one cursor value back for `column`, checking it has the column's type so a tampered
 * token is a 400, never a database error. Exact kinds come back as text for `exactParam`.
 * Throws `CursorInvalidError`.
 */
export function reviveValue(column: Column, field: string, values: Record<string, unknown>): unknown {
  if (!Object.hasOwn(values, field)) throw new CursorInvalidError(`no value for "${field}"`)
  const value = values[field]
  if (value === null) {
    if (column.notNull) throw new CursorInvalidError(`"${field}" may not be null`)
    return null
  }
  const wrong = () => new CursorInvalidError(`"${field}" has the wrong type`)
  const kind = exactKindOf(column)
  if (kind !== undefined) {
    const text = exactText(kind, value)
    if (text === undefined) throw wrong()
    return text
  }
  if (column.columnType === 'PgUUID') {
    if (typeof value !== 'string' || !UUID.test(value)) throw wrong()
    return value
  }
  const enumValues = (column as { enumValues?: readonly string[] }).enumValues
  if (enumValues !== undefined && enumValues.length > 0 && column.dataType === 'string') {
    if (typeof value !== 'string' || !enumValues.includes(value)) throw wrong()
    return value
  }
  switch (column.dataType) {
    case 'number':
      if (typeof value !== 'number' || !fitsNumber(column, value)) throw wrong()
      return value
    case 'string':
      if (typeof value !== 'string' || !isStorableText(value)) throw wrong()
      return value
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong()
      return value
    default:
      if (typeof value === 'object' || (typeof value === 'string' && !isStorableText(value))) throw wrong()
      return value
  }
}
