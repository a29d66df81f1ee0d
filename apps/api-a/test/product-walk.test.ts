import { testDatabaseKinds } from '@weft/tooling/test-db'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startApp, type TestApp } from './support.js'

/**
 * `GET /api/products` walks every product exactly once, in the list's ORDER BY order, whatever sort
 * it offers, limit and starting request (a cursor walk, a page, an offset), on a table full of
 * duplicate titles and amounts and of creation times sharing a millisecond.
 */

const FIELDS = ['id', 'title', 'amount', 'created_at'] as const
const COUNT = 41

interface Pagination {
  page: number
  limit: number
  offset: number
  sort: { field: string; order: 'asc' | 'desc' }[]
  cursor: string
  has_more: boolean
  next_cursor: string
  links: { next: string | null; prev: string | null }
}

const sortSpec = fc
  .uniqueArray(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 3 })
  .chain((fields) => fc.tuple(...fields.map((f) => fc.constantFrom(f, `-${f}`))).map((items) => items.join(',')))

const startSpec = fc.oneof(
  fc.constant({ kind: 'cursor' as const, at: 0 }),
  fc.integer({ min: 1, max: 12 }).map((at) => ({ kind: 'page' as const, at })),
  fc.integer({ min: 0, max: COUNT + 2 }).map((at) => ({ kind: 'offset' as const, at })),
)

describe.each(testDatabaseKinds())('GET /api/products walks on %s', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await startApp(kind, 'product_walk')
    const { db } = t.database
    await db.execute(
      sql`insert into users (username, email, password_hash) values ('walker', 'walker@example.com', 'x')`,
    )
    const rows = Array.from({ length: COUNT }, (_, i) => {
      // Creation times a few microseconds apart: many share a millisecond (the column keeps 3 digits).
      const created = `2026-11-23T12:00:00.${String(1000 + (i % 7) * 150).padStart(6, '0')}Z`
      return sql`(${`t${i % 5}`}, ${(i * 7) % 4}, (select id from users where username = 'walker'), ${created}::timestamptz)`
    })
    await db.execute(sql`insert into products (title, amount, owner_id, created_at) values ${sql.join(rows, sql`, `)}`)
  })
  afterAll(() => t?.close())

  async function get(url: string): Promise<{ ids: number[]; pagination: Pagination }> {
    const res = await t.app.inject(url)
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
    const body = res.json() as { data: { id: number }[]; meta: { pagination: Pagination } }
    return { ids: body.data.map((p) => p.id), pagination: body.meta.pagination }
  }

  /** The ids in the order one `ORDER BY` gives: the sort, then id in the first field's direction. */
  async function ordered(sort: string): Promise<number[]> {
    const terms = sort.split(',').map((s) => ({ field: s.replace(/^-/, ''), desc: s.startsWith('-') }))
    if (!terms.some((term) => term.field === 'id')) terms.push({ field: 'id', desc: terms[0]?.desc ?? false })
    const orderBy = terms.map(({ field, desc }) => `"${field}" ${desc ? 'desc' : 'asc'}`).join(', ')
    const result = (await t.database.db.execute(sql.raw(`select id from products order by ${orderBy}`))) as unknown
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: number }[]
    return rows.map((row) => Number(row.id))
  }

  /** Follows `links[direction]` from `url`, collecting each page's ids; fails when the walk does not end. */
  async function follow(url: string, direction: 'next' | 'prev'): Promise<number[][]> {
    const pages: number[][] = []
    let link: string | null = url
    for (let i = 0; i <= COUNT + 2 && link !== null; i++) {
      const { ids, pagination } = await get(link)
      pages.push(ids)
      if (pagination.cursor !== '' || (!url.includes('page=') && !url.includes('offset='))) {
        // A cursor walk links cursors only and has no prev.
        expect(pagination.links.prev).toBeNull()
        expect(pagination.links.next ?? '').not.toMatch(/[?&](page|offset)=/)
        expect(pagination.page).toBeGreaterThanOrEqual(1)
      }
      link = pagination.links[direction]
    }
    if (link !== null) throw new Error(`${url}: the ${direction} links did not end`)
    return pages
  }

  it.each(FIELDS.flatMap((field) => [field, `-${field}`]))(
    'walks every product once by cursor, sorted by %s',
    async (sort) => {
      expect((await follow(`/api/products?sort=${sort}&limit=4`, 'next')).flat()).toEqual(await ordered(sort))
    },
  )

  it('walks by cursor through one prepared statement per sort, building no query per page', async () => {
    // A fresh app: its statements are prepared on first use, one per shape (here: the sort).
    const app = await t.rebuild()
    const select = vi.spyOn(t.database.db, 'select')
    try {
      for (const sort of ['-amount', 'title,-created_at']) {
        const ids: number[] = []
        let link: string | null = `/api/products?sort=${sort}&limit=3`
        let pages = 0
        for (; link !== null && pages <= COUNT; pages++) {
          const res = await app.inject(link)
          expect(res.statusCode).toBe(200)
          const body = res.json() as { data: { id: number }[]; meta: { pagination: Pagination } }
          ids.push(...body.data.map((p) => p.id))
          link = body.meta.pagination.links.next
        }
        expect(ids).toEqual(await ordered(sort))
        expect(pages).toBe(Math.ceil(COUNT / 3))
      }
      // The first page's statement and one for every cursor page after it, per sort.
      expect(select).toHaveBeenCalledTimes(4)
    } finally {
      select.mockRestore()
    }
  })

  it('from any start, in any sort it offers, next links give the rest in order and prev links the rows before', async () => {
    await fc.assert(
      fc.asyncProperty(sortSpec, fc.integer({ min: 1, max: 9 }), startSpec, async (sort, limit, start) => {
        const expected = await ordered(sort)
        const query = start.kind === 'cursor' ? '' : `&${start.kind}=${start.at}`
        const url = `/api/products?sort=${encodeURIComponent(sort)}&limit=${limit}${query}`
        const first = start.kind === 'cursor' ? 0 : start.kind === 'page' ? (start.at - 1) * limit : start.at
        expect((await follow(url, 'next')).flat()).toEqual(expected.slice(first))
        const before = (await follow(url, 'prev')).slice(1).reverse().flat()
        expect(before).toEqual(start.kind === 'cursor' ? [] : expected.slice(0, Math.min(first, COUNT)))
      }),
      { numRuns: kind === 'postgres' ? 80 : 40 },
    )
  })

  it('echoes the values it applied in meta.pagination', async () => {
    const capped = await get('/api/products?limit=1000&sort=password_hash,-amount,owner_id')
    expect(capped.pagination).toMatchObject({
      limit: 100,
      page: 1,
      offset: 0,
      sort: [{ field: 'amount', order: 'desc' }],
    })
    const offset = await get('/api/products?offset=7&page=9&limit=3')
    expect(offset.pagination).toMatchObject({ page: 3, offset: 7, limit: 3 })
    expect(offset.pagination.links).toEqual({
      next: '/api/products?offset=10&limit=3',
      prev: '/api/products?offset=4&limit=3',
    })
  })
})
