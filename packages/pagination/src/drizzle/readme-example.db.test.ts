import { readFileSync } from 'node:fs'
import { testDatabaseKinds } from '@weft/tooling/test-db'
import { sql } from 'drizzle-orm'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { productRoutes } from '../../examples/drizzle-products.js'
import { type Db, openTestDb } from '../../test/drizzle-db.js'

const EXAMPLE = new URL('../../examples/drizzle-products.ts', import.meta.url)
const README = new URL('../../README.md', import.meta.url)

describe("the README's drizzle example", () => {
  it('is examples/drizzle-products.ts verbatim (the file these tests run)', () => {
    const readme = readFileSync(README, 'utf8')
    const block = /<!-- example: examples\/drizzle-products\.ts -->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(block).toBe(readFileSync(EXAMPLE, 'utf8'))
  })
})

describe.each(testDatabaseKinds())("the README's drizzle example on %s", (kind) => {
  let app: FastifyInstance
  let db: Db
  let close: () => Promise<void>

  beforeAll(async () => {
    ;({ db, close } = await openTestDb(kind, 'pagination_readme'))
    // The issue's table: created_at timestamptz default now(), 23 rows within a few milliseconds.
    await db.execute(sql`create table products (id serial primary key, name text not null,
      price numeric(12, 2), active boolean not null default true, created_at timestamptz not null default now())`)
    const rows = Array.from({ length: 23 }, (_, i) => {
      const created = `2026-11-23T10:00:00.${String(1000 + (i % 6) * 333).padStart(6, '0')}Z`
      const price = i % 4 === 0 ? null : ['1.10', '2.00', '1.10', '19.99'][i % 4]
      return sql`(${`p${i % 3}`}, ${price}::numeric, ${i !== 7}, ${created}::timestamptz)`
    })
    await db.execute(sql`insert into products (name, price, active, created_at) values ${sql.join(rows, sql`, `)}`)
    app = Fastify()
    productRoutes(app, db)
  })

  afterAll(async () => {
    await app?.close()
    await close?.()
  })

  async function ordered(orderBy: string): Promise<number[]> {
    const result = (await db.execute(sql.raw(`select id from products where active order by ${orderBy}`))) as unknown
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: number }[]
    return rows.map((row) => Number(row.id))
  }

  it.each([
    ['created', 'created_at asc, id asc'],
    ['-created', 'created_at desc, id desc'],
    ['price,-created', 'price asc nulls last, created_at desc, id asc'],
    ['-price,name', 'price desc nulls last, name asc, id desc'],
  ])('walks sort=%s by its links, every active row once in ORDER BY order', async (sort, orderBy) => {
    const ids: number[] = []
    let url: string | null = `/products?sort=${sort}&limit=2`
    for (let i = 0; i < 30 && url !== null; i++) {
      const response = await app.inject(url)
      expect(response.statusCode).toBe(200)
      const body = response.json() as { data: { id: number }[]; links: { next: string | null } }
      ids.push(...body.data.map((row) => row.id))
      url = body.links.next
    }
    expect(url).toBeNull()
    expect(ids).toEqual(await ordered(orderBy))
  })
})
