import { testDatabaseKinds } from '@weft/tooling/test-db'
import { getTableColumns, sql } from 'drizzle-orm'
import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Db, openTestDb } from '../../test/drizzle-db.js'
import { fromContext, paginate } from '../index.js'
import { type NullsPlacement, paginateQuery } from './index.js'

const items = pgTable('items', {
  id: integer('id').primaryKey(),
  price: integer('price').notNull(),
  name: text('name'),
  createdAt: timestamp('created_at', { withTimezone: true }),
  big: bigint('big', { mode: 'bigint' }).notNull(),
})

type Item = typeof items.$inferSelect

const ROWS = 1000
/** 1,000 rows with many duplicate sort values and nulls in the nullable columns. */
const rows: Item[] = Array.from({ length: ROWS }, (_, i) => {
  const id = i + 1
  return {
    id,
    price: (id * 7) % 13,
    name: id % 9 === 0 ? null : `n${String(id % 23).padStart(2, '0')}`,
    createdAt: id % 5 === 0 ? null : new Date(Date.UTC(2024, 0, 1 + (id % 11))),
    big: BigInt(id % 4) * 10n ** 15n,
  }
})

type Field = 'id' | 'price' | 'name' | 'created' | 'big'
const sortValue = (row: Item, field: Field) =>
  field === 'created' ? (row.createdAt?.getTime() ?? null) : field === 'big' ? row.big : row[field]

/** The order PostgreSQL must produce: the sort, then id in the first field's direction, nulls placed as asked. */
function expectedIds(sort: string, nulls: NullsPlacement): number[] {
  const keys = sort.split(',').map((item) => ({
    field: item.replace(/^-/, '') as Field,
    sign: item.startsWith('-') ? -1 : 1,
  }))
  keys.push({ field: 'id', sign: keys[0]?.sign ?? 1 })
  const nullSign = nulls === 'last' ? 1 : -1
  return [...rows]
    .sort((a, b) => {
      for (const { field, sign } of keys) {
        const [x, y] = [sortValue(a, field), sortValue(b, field)]
        if (x === y) continue
        if (x === null) return nullSign
        if (y === null) return -nullSign
        return x < y ? -sign : sign
      }
      return 0
    })
    .map((row) => row.id)
}

function appFor(db: Db, nulls: NullsPlacement): FastifyInstance {
  const app = Fastify()
  const hook = paginate({ allowedSorts: ['id', 'price', 'name', 'created', 'big'], maxLimit: 100 })
  app.get('/items', { onRequest: hook }, async (request) => {
    const page = fromContext(request)!
    const query = paginateQuery(page, {
      columns: {
        id: items.id,
        price: items.price,
        name: items.name,
        created: { column: items.createdAt, key: 'createdAt' },
        big: items.big,
      },
      unique: 'id',
      nulls,
    })
    const found = await db
      .select({ ...getTableColumns(items), ...query.select })
      .from(items)
      .where(query.where)
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset)
    return { ids: query.finish(found).map((row) => row.id), ...page.toJSON() }
  })
  return app
}

/** Follows next cursors from the first page to the last, collecting ids. */
async function walk(app: FastifyInstance, sort: string, limit: number): Promise<number[]> {
  const ids: number[] = []
  let url = `/items?sort=${sort}&limit=${limit}`
  for (let request = 0; request < ROWS; request++) {
    const response = await app.inject(url)
    expect(response.statusCode).toBe(200)
    const body = response.json() as { ids: number[]; has_more: boolean; next_cursor: string }
    ids.push(...body.ids)
    if (!body.has_more) return ids
    url = `/items?sort=${sort}&limit=${limit}&cursor=${body.next_cursor}`
  }
  throw new Error('paging did not end')
}

describe.each(testDatabaseKinds())('paginateQuery on %s', (kind) => {
  let db: Db
  let close: () => Promise<void>
  let byNullsLast: FastifyInstance
  let byNullsFirst: FastifyInstance

  beforeAll(async () => {
    ;({ db, close } = await openTestDb(kind, 'pagination_drizzle', 2))
    await db.execute(sql`create table items (
      id integer primary key, price integer not null, name text, created_at timestamptz, big bigint not null)`)
    const shuffled = [...rows].sort((a, b) => ((a.id * 7919) % ROWS) - ((b.id * 7919) % ROWS))
    await db.insert(items).values(shuffled)
    byNullsLast = appFor(db, 'last')
    byNullsFirst = appFor(db, 'first')
  })

  afterAll(async () => {
    await close?.()
  })

  it.each([
    ['id', 100],
    ['-id', 100],
    ['price', 37],
    ['-price', 37],
    ['big,-price', 41],
    ['price,-name', 37],
    ['-name', 53],
    ['name,-created', 29],
    ['-created,price', 61],
  ])('pages through every row exactly once in order, sorted by %s (limit %d)', async (sort, limit) => {
    const ids = await walk(byNullsLast, sort, limit)
    expect(new Set(ids).size).toBe(ROWS)
    expect(ids).toEqual(expectedIds(sort, 'last'))
  })

  it.each(['name', '-created,price'])('places nulls first when asked, sorted by %s', async (sort) => {
    expect(await walk(byNullsFirst, sort, 43)).toEqual(expectedIds(sort, 'first'))
  })

  it('answers a server error naming q.select when a microsecond timestamp sort runs without it', async () => {
    const app = Fastify()
    app.get('/bare', { onRequest: paginate({ allowedSorts: ['created'] }) }, async (request) => {
      const page = fromContext(request)!
      const query = paginateQuery(page, {
        columns: { id: items.id, created: { column: items.createdAt, key: 'createdAt' } },
        unique: 'id',
      })
      const found = await db
        .select()
        .from(items)
        .where(query.where)
        .orderBy(...query.orderBy)
        .limit(query.limit)
      return query.finish(found).map((row) => row.id)
    })
    const response = await app.inject('/bare?sort=created&limit=3')
    expect(response.statusCode).toBe(500)
    expect(response.json().message).toMatch(/q\.select/)
  })

  it('pages by offset with the same order', async () => {
    const response = await byNullsLast.inject('/items?sort=-price&limit=20&page=3')
    expect(response.json()).toMatchObject({ ids: expectedIds('-price', 'last').slice(40, 60), has_more: true })
  })

  it('reports no more rows on the last page', async () => {
    const response = await byNullsLast.inject('/items?limit=100&page=10')
    expect(response.json()).toMatchObject({ has_more: false, next_cursor: '' })
  })

  it.each([
    ['a value of the wrong type', { price: 'cheap', id: 1 }],
    ['a fractional id', { price: 3, id: 5e-324 }],
    ['an id beyond the integer range', { price: 3, id: 2 ** 31 }],
    ['a missing tie-breaker', { price: 3 }],
    ['null in a NOT NULL column', { price: null, id: 1 }],
    ['an invalid date', { created: 'yesterday', id: 1 }],
  ])('answers 400 WEFT_CURSOR_INVALID for a cursor with %s', async (_, values) => {
    const sort = 'created' in values ? 'created' : 'price'
    const cursor = Buffer.from(JSON.stringify(values)).toString('base64url')
    const response = await byNullsLast.inject(`/items?sort=${sort}&cursor=${cursor}`)
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('WEFT_CURSOR_INVALID')
  })
})
