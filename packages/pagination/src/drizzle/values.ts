import type { Column } from 'drizzle-orm'
import { CursorInvalidError } from '../errors.js'

/**
 * Turns a row's column value into JSON for a cursor token: dates become ISO strings and bigints
 * decimal strings, which `reviveValue` turns back by the column's data type.
 */
export function serializeValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return value.toString()
  return value === undefined ? null : value
}

const INTEGER = /^-?\d+$/

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
  const range = INTEGER_RANGES[column.getSQLType()]
  return range === undefined || (Number.isInteger(value) && value >= range[0] && value <= range[1])
}

/**
 * Reads one cursor value back for `column`, checking it has the column's type so a tampered
 * token is a 400, never a database error. Throws `CursorInvalidError`.
 */
export function reviveValue(column: Column, field: string, values: Record<string, unknown>): unknown {
  if (!Object.hasOwn(values, field)) throw new CursorInvalidError(`no value for "${field}"`)
  const value = values[field]
  if (value === null) {
    if (column.notNull) throw new CursorInvalidError(`"${field}" may not be null`)
    return null
  }
  const wrong = () => new CursorInvalidError(`"${field}" has the wrong type`)
  switch (column.dataType) {
    case 'number':
      if (typeof value !== 'number' || !fitsNumber(column, value)) throw wrong()
      return value
    case 'string':
      if (typeof value !== 'string') throw wrong()
      return value
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong()
      return value
    case 'bigint':
      if (typeof value !== 'string' || !INTEGER.test(value)) throw wrong()
      return BigInt(value)
    case 'date': {
      const date = typeof value === 'string' ? new Date(value) : undefined
      if (date === undefined || Number.isNaN(date.getTime())) throw wrong()
      return date
    }
    default:
      if (typeof value === 'object') throw wrong()
      return value
  }
}
