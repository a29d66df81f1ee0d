import {
  bigint,
  boolean,
  date,
  doublePrecision,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { CursorInvalidError } from '../index.js'
import { reviveValue, serializeValue } from './values.js'

const tone = pgEnum('tone', ['warm', 'cold'])
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
  local: timestamp('local'),
  amount: numeric('amount', { precision: 30, scale: 6 }),
  day: date('day'),
  u: uuid('u'),
  tone: tone('tone'),
  r4: real('r4'),
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
    ['bigint (number mode)', t.big53, Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER)],
    ['bigint beyond 2^53', t.big53, '9223372036854775807', '9223372036854775807'],
    ['double precision', t.real, 5e-324, 5e-324],
    ['text', t.s, 'abc', 'abc'],
    ['nullable text', t.s, null, null],
    ['boolean', t.b, false, false],
    ['bigint', t.big, '-42', '-42'],
    ['timestamp (milliseconds)', t.at, '2024-02-03T00:00:00.000Z', '2024-02-03T00:00:00.000Z'],
    ['timestamp (microseconds)', t.at, '2024-02-03T00:00:00.123456Z', '2024-02-03T00:00:00.123456Z'],
    ['timestamp (infinity)', t.at, '-infinity', '-infinity'],
    ['timestamp without time zone', t.local, '2024-02-29T23:59:59.999999', '2024-02-29T23:59:59.999999'],
    ['numeric beyond a float', t.amount, '123456789012345678.123456', '123456789012345678.123456'],
    ['numeric NaN', t.amount, 'NaN', 'NaN'],
    ['date', t.day, '2024-02-29', '2024-02-29'],
    ['uuid', t.u, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'],
    ['enum', t.tone, 'warm', 'warm'],
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
    ['bigint', t.big, '9223372036854775808'],
    ['bigint', t.big, 1.5],
    ['timestamp', t.at, 'not a date'],
    ['timestamp', t.at, '2024-02-30T00:00:00Z'],
    ['timestamp', t.at, '2023-02-29T00:00:00Z'],
    ['timestamp', t.at, '2024-01-01T24:00:00Z'],
    ['timestamp', t.at, '2024-01-01T00:00:00.1234567Z'],
    ['timestamp without zone', t.at, '2024-01-01T00:00:00'],
    ['timestamp', t.at, '2024-01-01'],
    ['timestamp', t.at, 1704067200000],
    ['timestamp without time zone', t.local, 'yesterday'],
    ['numeric', t.amount, '1e400'],
    ['numeric', t.amount, '1.5\u0000'],
    ['numeric', t.amount, true],
    ['date', t.day, '2024-13-01'],
    ['date', t.day, '2024-01-01T12:00:00Z'],
    ['uuid', t.u, 'not-a-uuid'],
    ['uuid', t.u, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1'],
    ['enum', t.tone, 'hot'],
    ['text with a NUL byte', t.s, 'a\u0000b'],
    ['text with a lone surrogate', t.s, '\ud800'],
    ['real that rounds to 0', t.r4, 1e-50],
    ['real beyond its range', t.r4, 1e39],
    ['NOT NULL integer', t.n, null],
    ['jsonb', t.doc, { nested: true }],
  ])('rejects a %s column given %j with CursorInvalidError', (_, column, value) => {
    expect(() => reviveValue(column, 'f', { f: value })).toThrow(CursorInvalidError)
  })

  it('rejects a missing value, even one inherited from the prototype', () => {
    expect(() => reviveValue(t.s, 'toString', {})).toThrow(/no value for "toString"/)
  })
})
