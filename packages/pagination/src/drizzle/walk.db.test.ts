import { testDatabaseKinds } from '@weft/tooling/test-db'
import { getTableColumns, type SQL, sql } from 'drizzle-orm'
import { bigint, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Db, openTestDb } from '../../test/drizzle-db.js'
import { fromContext, paginate } from '../index.js'
import { type NullsPlacement, paginateQuery } from './index.js'

/**
 * Property: following the library's own cursor links from the first page visits every row exactly
 * once, in the order a single `ORDER BY` gives, and ends; for every supported column type (timestamps
 * of precision 0-6 holding microseconds, numeric with duplicates and NULLs, bigint beyond 2^53, uuid,
 * text under the default and the "C" collation), any sort and any limit. Runs on PGlite always and on
 * the real server when TEST_DATABASE_URL is set.
 */

const walkRows = pgTable('walk_rows', {
  id: integer('id').primaryKey(),
  tz6: timestamp('tz6', { withTimezone: true }),
  tz3: timestamp('tz3', { withTimezone: true, precision: 3 }),
  tz0: timestamp('tz0', { withTimezone: true, precision: 0 }).notNull(),
  ts6: timestamp('ts6'),
  ts2: timestamp('ts2', { precision: 2 }),
  amount: numeric('amount', { precision: 24, scale: 6 }),
  big: bigint('big', { mode: 'bigint' }),
  u: uuid('u'),
  name: text('name'),
  code: text('code').notNull(),
})

const DDL = sql`create table walk_rows (
  id integer primary key, tz6 timestamptz, tz3 timestamptz(3), tz0 timestamptz(0) not null,
  ts6 timestamp, ts2 timestamp(2), amount numeric(24, 6), big bigint, u uuid, name text,
  code text collate "C" not null)`

type Field = Exclude<keyof typeof walkRows.$inferSelect, never>
const FIELDS = ['id', 'tz6', 'tz3', 'tz0', 'ts6', 'ts2', 'amount', 'big', 'u', 'name', 'code'] as const
const SQL_NAMES: Record<Field, string> = {
  id: 'id',
  tz6: 'tz6',
  tz3: 'tz3',
  tz0: 'tz0',
  ts6: 'ts6',
  ts2: 'ts2',
  amount: 'amount',
  big: 'big',
  u: 'u',
  name: 'name',
  code: 'code',
}

/** 2024-01-01T00:00:00Z in microseconds, plus offsets that share milliseconds and seconds. */
const BASE_MICROS = 1_704_067_200_000_000n
const MICRO_OFFSETS = [0, 1, 250, 999, 1000, 1001, 1500, 1999, 999_999, 1_000_000, 1_000_500, 2_499_999]

/** ISO text with all six fractional digits (a JS Date would drop the last three). */
function isoMicros(micros: bigint, zone: boolean): string {
  const millis = micros / 1000n
  const rest = (micros % 1000n).toString().padStart(3, '0')
  return `${new Date(Number(millis)).toISOString().slice(0, 23)}${rest}${zone ? 'Z' : ''}`
}

const instant = fc.constantFrom(...MICRO_OFFSETS).map((offset) => BASE_MICROS + BigInt(offset))
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 })

const NUMERICS = ['-1.5', '0', '0.000001', '1.5', '1.500001', '123456789012345678.123456', '123456789012345678.123457']
const BIGINTS = ['-9223372036854775808', '-1', '0', '9007199254740992', '9007199254740993', '9223372036854775807']
const UUIDS = [
  '00000000-0000-0000-0000-000000000000',
  '0f0e0d0c-0b0a-4908-8706-050403020100',
  'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
]
const TEXTS = ['', 'a', 'A', 'b', 'B', 'e', 'é', 'ä', 'z', ' a', 'a b', 'ab', 'Ab']

const rowValues = fc.record({
  tz6: nullable(instant),
  tz3: nullable(instant),
  tz0: instant,
  ts6: nullable(instant),
  ts2: nullable(instant),
  amount: nullable(fc.constantFrom(...NUMERICS)),
  big: nullable(fc.constantFrom(...BIGINTS)),
  u: nullable(fc.constantFrom(...UUIDS)),
  name: nullable(fc.constantFrom(...TEXTS)),
  code: fc.constantFrom(...TEXTS),
})
type RowValues = typeof rowValues extends fc.Arbitrary<infer T> ? T : never

const sortSpec = fc
  .uniqueArray(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 3 })
  .chain((fields) =>
    fc.tuple(...fields.map((field) => fc.constantFrom(field, `-${field}`))).map((items) => items.join(',')),
  )

function insertSQL(rows: readonly RowValues[]): SQL {
  const tuples = rows.map((row, i) => {
    const ts = (value: bigint | null, zone: boolean) => (value === null ? null : isoMicros(value, zone))
    return sql`(${i + 1}, ${ts(row.tz6, true)}::timestamptz, ${ts(row.tz3, true)}::timestamptz,
      ${ts(row.tz0, true)}::timestamptz, ${ts(row.ts6, false)}::timestamp, ${ts(row.ts2, false)}::timestamp,
      ${row.amount}::numeric, ${row.big}::bigint, ${row.u}::uuid, ${row.name}::text, ${row.code}::text)`
  })
  return sql`insert into walk_rows (id, tz6, tz3, tz0, ts6, ts2, amount, big, u, name, code) values ${sql.join(tuples, sql`, `)}`
}

/** The ids in the order one plain `ORDER BY` gives (the sort, then id in the first field's direction). */
async function orderedIds(db: Db, sort: string, nulls: NullsPlacement): Promise<number[]> {
  const terms = sort.split(',').map((item) => ({ field: item.replace(/^-/, '') as Field, desc: item.startsWith('-') }))
  if (!terms.some((t) => t.field === 'id')) terms.push({ field: 'id', desc: terms[0]?.desc ?? false })
  const orderBy = terms
    .map(({ field, desc }) => `"${SQL_NAMES[field]}" ${desc ? 'desc' : 'asc'} nulls ${nulls}`)
    .join(', ')
  const result = (await db.execute(sql.raw(`select id from walk_rows order by ${orderBy}`))) as unknown
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
  return (rows as { id: number }[]).map((row) => Number(row.id))
}

/**
 * The route under test: the hook, `paginateQuery`, and the cursor link it answers with. `columns`
 * may map a field to another column (a cursor replayed where the field has another type).
 */
function walkApp(
  db: Db,
  nulls: NullsPlacement,
  columns = getTableColumns(walkRows),
  nullFlags = false,
): FastifyInstance {
  const app = Fastify()
  const hook = paginate({ allowedSorts: [...FIELDS], maxLimit: 100 })
  app.get('/rows', { onRequest: hook }, async (request) => {
    const page = fromContext(request)!
    const q = paginateQuery(page, { columns, unique: 'id', nulls, nullFlags })
    const found = await db
      .select({ ...getTableColumns(walkRows), ...q.select })
      .from(walkRows)
      .where(q.where)
      .orderBy(...q.orderBy)
      .limit(q.limit)
      .offset(q.offset)
    return { ids: q.finish(found).map((row) => row.id), next: page.nextCursorURL(request.url) || null }
  })
  return app
}

/** Follows `next` links from `?sort&limit` until there are none; fails on an error or a runaway walk. */
async function walk(app: FastifyInstance, sort: string, limit: number, rows: number): Promise<number[]> {
  const ids: number[] = []
  let url: string | null = `/rows?sort=${encodeURIComponent(sort)}&limit=${limit}`
  for (let request = 0; request <= rows + 1 && url !== null; request++) {
    const response = await app.inject(url)
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`)
    const body = response.json() as { ids: number[]; next: string | null }
    ids.push(...body.ids)
    url = body.next
  }
  if (url !== null) throw new Error(`the walk did not end after ${rows + 2} requests: ${ids.join(',')}`)
  return ids
}

describe.each(testDatabaseKinds())('cursor walks on %s', (kind) => {
  let db: Db
  let close: () => Promise<void>
  const apps = {} as Record<NullsPlacement, FastifyInstance>
  // the same routes with null flags in the ordering (the same order, other SQL)
  const flagApps = {} as Record<NullsPlacement, FastifyInstance>

  beforeAll(async () => {
    ;({ db, close } = await openTestDb(kind, 'pagination_walk'))
    await db.execute(DDL)
    apps.last = walkApp(db, 'last')
    apps.first = walkApp(db, 'first')
    flagApps.last = walkApp(db, 'last', getTableColumns(walkRows), true)
    flagApps.first = walkApp(db, 'first', getTableColumns(walkRows), true)
  })

  afterAll(async () => {
    await close?.()
  })

  it('visits every row exactly once, in ORDER BY order, for any rows, sort, limit, NULL placement and null flags', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowValues, { maxLength: 24 }),
        sortSpec,
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom<NullsPlacement>('last', 'first'),
        fc.boolean(),
        async (rows, sort, limit, nulls, nullFlags) => {
          await db.execute(sql`truncate walk_rows`)
          if (rows.length > 0) await db.execute(insertSQL(rows))
          const expected = await orderedIds(db, sort, nulls)
          expect(await walk((nullFlags ? flagApps : apps)[nulls], sort, limit, rows.length)).toEqual(expected)
        },
      ),
      { numRuns: 90 },
    )
  })

  it('walks a cursor made without null flags on with them, and back (the same order)', async () => {
    await db.execute(sql`truncate walk_rows`)
    const rows = Array.from({ length: 9 }, (_, i) => ({
      tz6: null,
      tz3: null,
      tz0: BASE_MICROS,
      ts6: null,
      ts2: null,
      amount: i % 3 === 0 ? null : NUMERICS[i % NUMERICS.length]!,
      big: null,
      u: null,
      name: i % 2 === 0 ? null : TEXTS[i]!,
      code: 'x',
    }))
    await db.execute(insertSQL(rows))
    const expected = await orderedIds(db, '-amount,-name', 'last')
    const ids: number[] = []
    let url: string | null = '/rows?sort=-amount,-name&limit=2'
    for (let step = 0; url !== null && step < 12; step++) {
      const body = (await (step % 2 === 0 ? apps : flagApps).last.inject(url)).json() as {
        ids: number[]
        next: string | null
      }
      ids.push(...body.ids)
      url = body.next
    }
    expect(ids).toEqual(expected)
  })

  it.each([
    ['tz6', 'ascending'],
    ['-tz6', 'descending'],
    ['tz3,-ts6', 'mixed'],
  ])('walks %s (%s) when many rows share a millisecond', async (sort) => {
    await db.execute(sql`truncate walk_rows`)
    const rows = Array.from({ length: 23 }, (_, i) => ({
      tz6: BASE_MICROS + BigInt(i % 4),
      tz3: BASE_MICROS,
      tz0: BASE_MICROS,
      ts6: BASE_MICROS + BigInt(i % 3) * 7n,
      ts2: null,
      amount: null,
      big: null,
      u: null,
      name: null,
      code: 'x',
    }))
    await db.execute(insertSQL(rows))
    expect(await walk(apps.last, sort, 2, rows.length)).toEqual(await orderedIds(db, sort, 'last'))
  })

  describe('a cursor from elsewhere is a 400 WEFT_CURSOR_INVALID, never a skip or a 500', () => {
    /** A next cursor of the walk `sort` (limit 1) on rows with every column filled. */
    async function cursorFor(sort: string): Promise<string> {
      await db.execute(sql`truncate walk_rows`)
      const full = { tz6: BASE_MICROS + 1n, tz3: BASE_MICROS, tz0: BASE_MICROS, ts6: BASE_MICROS, ts2: BASE_MICROS }
      const more = { amount: '1.5', big: '9007199254740993', u: UUIDS[1]!, name: 'a', code: 'a' }
      await db.execute(
        insertSQL([
          { ...full, ...more },
          { ...full, ...more },
        ]),
      )
      const body = (await apps.last.inject(`/rows?sort=${sort}&limit=1`)).json() as { next: string }
      return new URL(body.next, 'http://x').searchParams.get('cursor') as string
    }

    const expect400 = async (app: FastifyInstance, url: string) => {
      const response = await app.inject(url)
      expect({ status: response.statusCode, code: response.json().code }).toEqual({
        status: 400,
        code: 'WEFT_CURSOR_INVALID',
      })
    }

    it.each([
      ['tz6', 'name', 'text'],
      ['tz6', 'ts6', 'timestamp without time zone'],
      ['tz6', 'tz3', 'timestamptz(3)'],
      ['amount', 'big', 'bigint'],
      ['big', 'amount', 'numeric'],
      ['u', 'name', 'text'],
      ['name', 'code', 'text collate "C" NOT NULL'],
      ['code', 'name', 'text, nullable, default collation'],
    ] as const)('a %s cursor replayed where the field is %s (%s)', async (field, other, _type) => {
      const cursor = await cursorFor(field)
      const retyped = walkApp(db, 'last', { ...getTableColumns(walkRows), [field]: walkRows[other] })
      await expect400(retyped, `/rows?sort=${field}&limit=1&cursor=${cursor}`)
    })

    it.each(['-tz6', 'tz6,amount', 'id'])('a tz6 cursor replayed with sort %s', async (sort) => {
      const cursor = await cursorFor('tz6')
      await expect400(apps.last, `/rows?sort=${encodeURIComponent(sort)}&limit=1&cursor=${cursor}`)
    })

    it('a tz6 cursor replayed with NULLs placed first', async () => {
      await expect400(apps.first, `/rows?sort=tz6&limit=1&cursor=${await cursorFor('tz6')}`)
    })

    const jsonValue = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        '\u0000',
        'a\u0000',
        '\u0001\u001f',
        '\ud800',
        '1e999',
        'NaN',
        'infinity',
        '2024-02-30T00:00:00Z',
      ),
      fc.constantFrom('9223372036854775808', '2024-01-01T00:00:00.1234567Z', '0000-01-01T00:00:00Z', '12:00'),
      fc.double(),
      fc.integer(),
      fc.bigInt().map(String),
      fc.boolean(),
      fc.constant(null),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.uuid(),
      fc.array(fc.integer(), { maxLength: 2 }),
    )
    const forgedValues = fc.dictionary(fc.constantFrom(...FIELDS, '$types'), jsonValue, { minKeys: 1 })
    const garbage = fc.oneof(
      forgedValues.map((values) => Buffer.from(JSON.stringify(values)).toString('base64url')),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
      fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
    )

    it('forged or garbage cursors (any JSON, NUL and control characters, any bytes) answer 200 or that 400', async () => {
      await cursorFor('id')
      await fc.assert(
        fc.asyncProperty(garbage, sortSpec, async (cursor, sort) => {
          const response = await apps.last.inject(`/rows?sort=${encodeURIComponent(sort)}&limit=2&cursor=${cursor}`)
          if (response.statusCode === 200) return
          expect({ status: response.statusCode, code: response.json().code }).toEqual({
            status: 400,
            code: 'WEFT_CURSOR_INVALID',
          })
        }),
        { numRuns: 300 },
      )
    })
  })
})
