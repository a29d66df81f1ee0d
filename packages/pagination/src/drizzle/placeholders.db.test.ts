import { testDatabaseKinds } from '@weft/tooling/test-db'
import { getTableColumns, sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  customType,
  date,
  doublePrecision,
  integer,
  numeric,
  PgDialect,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Db, openTestDb } from '../../test/drizzle-db.js'
import { PageInfo } from '../index.js'
import { type NullsPlacement, paginateQuery } from './index.js'

/**
 * `placeholders: true`: the keyset condition with drizzle placeholders, one prepared statement per
 * `q.shape`, gives the same rows and next cursors as the inline condition, for every column kind.
 */

/** Hundredths in JS, whole numbers in the database: wrong pages unless the encoder maps the placeholder. */
const cents = customType<{ data: number; driverData: number }>({
  dataType: () => 'integer',
  toDriver: (value) => Math.round(value * 100),
  fromDriver: (value) => Number(value) / 100,
})

const kinds = pgTable('kinds', {
  id: integer('id').primaryKey(),
  n: integer('n').notNull(),
  name: text('name'),
  flag: boolean('flag').notNull(),
  u: uuid('u'),
  tz: timestamp('tz', { withTimezone: true, precision: 6 }),
  ts: timestamp('ts', { precision: 6 }).notNull(),
  day: date('day'),
  amount: numeric('amount'),
  big: bigint('big', { mode: 'bigint' }),
  real: doublePrecision('real').notNull(),
  score: cents('score').notNull(),
})

const ROWS = 60
const columns = { ...getTableColumns(kinds) }
const FIELDS = Object.keys(columns) as (keyof typeof columns)[]

/** Rows with duplicates in every sort column, nulls in the nullable ones and microseconds apart. */
const insert = sql`insert into kinds (id, n, name, flag, u, tz, ts, day, amount, big, real, score)
  select i, i % 7, case when i % 5 = 0 then null else 'n' || (i % 4) end, i % 2 = 0,
    case when i % 6 = 0 then null else ('00000000-0000-4000-8000-00000000000' || (i % 3))::uuid end,
    case when i % 4 = 0 then null else '2026-01-01T00:00:00Z'::timestamptz + (i % 5) * interval '1 microsecond' end,
    '2026-01-01T00:00:00'::timestamp + (i % 3) * interval '1 microsecond',
    case when i % 7 = 0 then null else '2026-01-01'::date + (i % 3) end,
    case when i % 3 = 0 then null else (i % 4) + 0.000000000000000001 * (i % 2) end,
    case when i % 8 = 0 then null else 9007199254740992 + (i % 3) end,
    (i % 6) / 4.0, (i % 5) * 25
  from generate_series(1, ${ROWS}) as i`

const asSort = (spec: string): PageInfo['sort'] =>
  spec.split(',').map((item) => ({ field: item.replace(/^-/, ''), order: item.startsWith('-') ? 'desc' : 'asc' }))

interface Page {
  ids: number[]
  next: string
  shape: string
}

describe.each(testDatabaseKinds())('paginateQuery with placeholders on %s', (kind) => {
  let db: Db
  let close: () => Promise<void>
  const dialect = new PgDialect()

  beforeAll(async () => {
    ;({ db, close } = await openTestDb(kind, 'pagination_placeholders'))
    await db.execute(sql`create table kinds (id integer primary key, n integer not null, name text, flag boolean not null,
      u uuid, tz timestamptz(6), ts timestamp(6) not null, day date, amount numeric, big bigint,
      real double precision not null, score integer not null)`)
    await db.execute(insert)
  })

  afterAll(async () => {
    await close?.()
  })

  const pageOf = (sort: string, limit: number, cursor: string) =>
    new PageInfo({ sort: asSort(sort), limit, mode: 'cursor', cursor })

  /** One page the usual way: a query built with the cursor values inline. */
  async function inlinePage(sort: string, limit: number, cursor: string, nulls: NullsPlacement): Promise<Page> {
    const page = pageOf(sort, limit, cursor)
    const q = paginateQuery(page, { columns, unique: 'id', nulls })
    const rows = await db
      .select({ ...columns, ...q.select })
      .from(kinds)
      .where(q.where)
      .orderBy(...q.orderBy)
      .limit(q.limit)
    return { ids: q.finish(rows).map((row) => row.id), next: page.nextCursor, shape: q.shape }
  }

  /** Pages through statements prepared once per shape, counting how many it prepared. */
  function preparedPages(nulls: NullsPlacement) {
    const statements = new Map<string, { execute(values: Record<string, unknown>): Promise<unknown> }>()
    let prepared = 0
    return {
      statements,
      prepared: () => prepared,
      async page(sort: string, limit: number, cursor: string): Promise<Page> {
        const page = pageOf(sort, limit, cursor)
        const q = paginateQuery(page, { columns, unique: 'id', nulls, placeholders: true })
        let statement = statements.get(q.shape)
        if (statement === undefined) {
          statement = db
            .select({ ...columns, ...q.select })
            .from(kinds)
            .where(q.where)
            .orderBy(...q.orderBy)
            .limit(sql.placeholder('limit'))
            .prepare(`kinds_${nulls}_${prepared++}`)
          statements.set(q.shape, statement)
        }
        const rows = (await statement.execute({ ...q.placeholders, limit: q.limit })) as (typeof kinds.$inferSelect & {
          weftCursor: string
        })[]
        return { ids: q.finish(rows).map((row) => row.id), next: page.nextCursor, shape: q.shape }
      },
    }
  }

  it.each([
    ...FIELDS.flatMap((field) => [
      [field, 'last'],
      [`-${field}`, 'first'],
    ]),
    ['name,-tz', 'last'],
    ['-amount,day,big', 'first'],
    ['flag,-u,score', 'last'],
  ] as [string, NullsPlacement][])(
    'sorted by %s (nulls %s), every page and next cursor is the inline query’s',
    async (sort, nulls) => {
      const { page, prepared, statements } = preparedPages(nulls)
      const seen: number[] = []
      const shapes = new Set<string>()
      let cursor = ''
      for (let request = 0; request <= ROWS; request++) {
        const expected = await inlinePage(sort, 4, cursor, nulls)
        const actual = await page(sort, 4, cursor)
        expect(actual).toEqual(expected)
        seen.push(...actual.ids)
        shapes.add(actual.shape)
        cursor = actual.next
        if (cursor === '') break
      }
      expect(seen.toSorted((a, b) => a - b)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1))
      // One statement per shape, each reused: the first page, then one per null pattern of the cursors.
      expect(prepared()).toBe(shapes.size)
      expect(statements.size).toBe(shapes.size)
      const nullable = sort.split(',').some((item) => !columns[item.replace(/^-/, '') as keyof typeof columns].notNull)
      expect(shapes.size).toBeGreaterThanOrEqual(nullable ? 3 : 2)
      if (!nullable) expect(shapes.size).toBe(2)
    },
  )

  it('gives cursors of the same shape the same key and SQL, other values, and one prepared statement both pages', async () => {
    const at = async (sort: string, skip: number) => {
      let cursor = ''
      for (let i = 0; i < skip; i++) cursor = (await inlinePage(sort, 3, cursor, 'last')).next
      return pageOf(sort, 3, cursor)
    }
    const build = (page: PageInfo) => paginateQuery(page, { columns, unique: 'id', placeholders: true })
    const [a, b] = [build(await at('-tz,amount', 1)), build(await at('-tz,amount', 2))]
    expect(a.shape).toBe(b.shape)
    expect(dialect.sqlToQuery(a.where!).sql).toBe(dialect.sqlToQuery(b.where!).sql)
    expect(a.placeholders).not.toEqual(b.placeholders)
    // Values of exact kinds are their text, cast in SQL; the others go through the column.
    expect(dialect.sqlToQuery(a.where!).sql).toContain('cast($')
    expect(Object.values(a.placeholders).every((value) => typeof value === 'string' || typeof value === 'number')).toBe(
      true,
    )

    const { page, prepared } = preparedPages('last')
    const first = await page('-tz,amount', 3, '')
    const second = await page('-tz,amount', 3, first.next)
    const third = await page('-tz,amount', 3, second.next)
    expect(prepared()).toBe(2)
    expect([second.ids, third.ids]).toEqual([
      (await inlinePage('-tz,amount', 3, first.next, 'last')).ids,
      (await inlinePage('-tz,amount', 3, second.next, 'last')).ids,
    ])
  })

  it('keys a null cursor value on a nullable column apart, and inline values leave no placeholders', async () => {
    const nullName = (id: number) => {
      const issuer = new PageInfo({ sort: asSort('name') })
      issuer.setNextCursor({ name: id === 0 ? null : 'n1', id: id || 5 })
      return pageOf('name', 3, issuer.nextCursor)
    }
    const withNull = paginateQuery(nullName(0), { columns, unique: 'id', placeholders: true })
    const withValue = paginateQuery(nullName(1), { columns, unique: 'id', placeholders: true })
    expect(withNull.shape).not.toBe(withValue.shape)
    expect(withNull.placeholders).toEqual({ weftKey1: 5 })
    expect(withValue.placeholders).toEqual({ weftKey0: 'n1', weftKey1: 1 })
    const inline = paginateQuery(nullName(1), { columns, unique: 'id' })
    expect(inline.placeholders).toEqual({})
    expect(inline.shape).toBe(withValue.shape)
    expect(paginateQuery(pageOf('name', 3, ''), { columns, unique: 'id' }).shape).not.toBe(withValue.shape)
  })
})
