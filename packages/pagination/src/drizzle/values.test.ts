import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { CursorInvalidError } from '../index.js'
import { reviveValue, serializeValue } from './values.js'

const t = pgTable('t', {
  n: integer('n').notNull(),
  id: serial('id').primaryKey(),
  small: smallint('small').notNull(),
  big53: bigint('big53', { mode: 'number' }).notNull(),
  real: doublePrecision('real').notNull(),
  s: text('s'),
  b: boolean('b').notNull(),
  big: bigint('big', { mode: 'bigint' }).notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  doc: jsonb('doc'),
})

describe('serializeValue', () => {
  it('writes dates as ISO strings and bigints as decimal strings', () => {
    expect(serializeValue(new Date(Date.UTC(2024, 1, 3)))).toBe('2024-02-03T00:00:00.000Z')
    expect(serializeValue(12345678901234567890n)).toBe('12345678901234567890')
    expect(serializeValue(undefined)).toBeNull()
    expect(serializeValue('x')).toBe('x')
  })
})

describe('reviveValue', () => {
  it.each([
    ['integer', t.n, 7, 7],
    ['serial', t.id, 2147483647, 2147483647],
    ['bigint (number mode)', t.big53, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    ['double precision', t.real, 5e-324, 5e-324],
    ['text', t.s, 'abc', 'abc'],
    ['nullable text', t.s, null, null],
    ['boolean', t.b, false, false],
    ['bigint', t.big, '-42', -42n],
    ['timestamp', t.at, '2024-02-03T00:00:00.000Z', new Date(Date.UTC(2024, 1, 3))],
  ])('reads back a %s value', (_, column, value, revived) => {
    expect(reviveValue(column, 'f', { f: value })).toEqual(revived)
  })

  it.each([
    ['integer', t.n, '7'],
    ['integer', t.n, Number.NaN],
    ['integer', t.n, 5e-324],
    ['integer', t.n, 1.5],
    ['integer', t.n, 2147483648],
    ['serial', t.id, -2147483649],
    ['smallint', t.small, 32768],
    ['bigint (number mode)', t.big53, 2 ** 60],
    ['double precision', t.real, Number.POSITIVE_INFINITY],
    ['text', t.s, 5],
    ['boolean', t.b, 'true'],
    ['bigint', t.big, '1.5'],
    ['timestamp', t.at, 'not a date'],
    ['NOT NULL integer', t.n, null],
    ['jsonb', t.doc, { nested: true }],
  ])('rejects a %s column given %j with CursorInvalidError', (_, column, value) => {
    expect(() => reviveValue(column, 'f', { f: value })).toThrow(CursorInvalidError)
  })

  it('rejects a missing value, even one inherited from the prototype', () => {
    expect(() => reviveValue(t.s, 'toString', {})).toThrow(/no value for "toString"/)
  })
})
