import { testDatabaseKinds } from '@weft/tooling/test-db'
import { getTableColumns, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { integer, numeric, pgTable, text } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Db, openTestDb } from '../../test/drizzle-db.js'
import { PageInfo } from '../index.js'
import { paginateQuery } from './index.js'

/**
 * `nullFlags: true` with the expression indexes the README gives: the cursor page of a nullable
 * sort column, deep in the table, is one index range (an index condition, no Sort, no sequential
 * scan), in both directions, after a value and after a null. Without the flags the same query
 * walks or sorts the table (the control).
 */

const items = pgTable('items', {
  id: integer('id').primaryKey(),
  price: numeric('price', { precision: 12, scale: 2 }),
  name: text('name'),
})
const columns = getTableColumns(items)
const ROWS = 40_000

type Plan = { 'Node Type': string; 'Index Name'?: string; 'Index Cond'?: string; Plans?: Plan[] }

function nodes(plan: Plan): Plan[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)]
}

/** One page's query, as a route of the helper writes it. */
function pageQuery(db: Db, page: PageInfo, nullFlags: boolean) {
  const q = paginateQuery(page, { columns, unique: 'id', nullFlags })
  const query = db
    .select({ ...columns, ...q.select })
    .from(items)
    .where(q.where)
    .orderBy(...q.orderBy)
    .limit(q.limit)
  return { q, query }
}

/** The plan of one page's query, as the nodes PostgreSQL would run. */
async function planOf(db: Db, page: PageInfo, nullFlags: boolean): Promise<Plan[]> {
  const { query } = pageQuery(db, page, nullFlags)
  const result = (await db.execute(sql`explain (format json) ${query as unknown as SQLWrapper}`)) as unknown
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[]
  const json = Object.values(rows[0] as object)[0]
  const [top] = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: Plan }[]
  return nodes(top!.Plan)
}

/**
 * Whether the plan reads an index in the order asked from the cursor on: no Sort, no sequential
 * scan, and an index condition on every term of the index (the flag, the column and the id), so
 * that the scan starts at the cursor, not at the start of the flag's rows.
 */
const isRange = (plan: Plan[]) =>
  !plan.some((node) => node['Node Type'] === 'Sort' || node['Node Type'] === 'Seq Scan') &&
  plan.some((node) => {
    const condition = node['Index Cond'] ?? ''
    return /num_(non)?nulls\(price\)/.test(condition) && /\bprice\b(?!\))/.test(condition) && /\bid\b/.test(condition)
  })

function cursorPage(order: 'asc' | 'desc', values: Record<string, unknown>): PageInfo {
  const sort = [{ field: 'price', order }] as PageInfo['sort']
  const issuer = new PageInfo({ sort, limit: 20 })
  issuer.setNextCursor(values)
  return new PageInfo({ sort, limit: 20, cursor: issuer.nextCursor })
}

describe.each(testDatabaseKinds())('null flags and expression indexes on %s', (kind) => {
  let db: Db
  let close: () => Promise<void>

  beforeAll(async () => {
    ;({ db, close } = await openTestDb(kind, 'pagination_null_flags'))
    await db.execute(sql`create table items (id integer primary key, price numeric(12, 2), name text)`)
    // a tenth of the prices null, the rest with many duplicates
    await db.execute(sql`insert into items (id, price, name)
      select i, case when i % 10 = 0 then null else (i % 997) / 4.0 end, 'n' || i
      from generate_series(1, ${sql.raw(String(ROWS))}) as i`)
    // the README's indexes for `price` and `-price` with nulls last, and a plain one (the control)
    const ddl: SQL[] = [
      sql`create index items_price_nulls_idx on items (num_nulls(price), price, id)`,
      sql`create index items_price_values_idx on items (num_nonnulls(price), price, id)`,
      sql`create index items_price_idx on items (price, id)`,
      // two nullable sort fields: each column's flag before it
      sql`create index items_price_name_idx on items (num_nulls(price), price, num_nulls(name), name, id)`,
      sql`analyze items`,
    ]
    for (const statement of ddl) await db.execute(statement)
  }, 60_000)

  afterAll(async () => {
    await close?.()
  })

  it.each([
    ['price', 'asc', { price: '120.25', id: 30_001 }],
    ['-price', 'desc', { price: '12.50', id: 30_001 }],
    ['price, after a null', 'asc', { price: null, id: 20_000 }],
    ['-price, after a null', 'desc', { price: null, id: 20_000 }],
  ] as const)('a cursor page of %s deep in the table is one index range', async (_name, order, values) => {
    expect(isRange(await planOf(db, cursorPage(order, values), true))).toBe(true)
  })

  it('a cursor page of price,name (two nullable columns) is one range of the index with both flags', async () => {
    const sort = [
      { field: 'price', order: 'asc' },
      { field: 'name', order: 'asc' },
    ] as PageInfo['sort']
    const issuer = new PageInfo({ sort, limit: 20 })
    issuer.setNextCursor({ price: '120.25', name: 'n30001', id: 30_001 })
    const page = new PageInfo({ sort, limit: 20, cursor: issuer.nextCursor })
    const plan = await planOf(db, page, true)
    expect(isRange(plan)).toBe(true)
    expect(plan.some((node) => node['Index Name'] === 'items_price_name_idx')).toBe(true)
  })

  it('without null flags the same page is not (the control)', async () => {
    expect(isRange(await planOf(db, cursorPage('asc', { price: '120.25', id: 30_001 }), false))).toBe(false)
  })

  it('the flagged page answers the rows a plain ORDER BY gives after the cursor', async () => {
    const page = cursorPage('desc', { price: '12.50', id: 30_001 })
    const { q, query } = pageQuery(db, page, true)
    const rows = await query
    const result = (await db.execute(sql`select id from items
      where price < 12.50 or (price = 12.50 and id < 30001) or price is null
      order by price desc nulls last, id desc limit 21`)) as unknown
    const expected = (Array.isArray(result) ? result : (result as { rows: { id: number }[] }).rows) as {
      id: number
    }[]
    expect(q.finish(rows).map((row) => row.id)).toEqual(expected.slice(0, 20).map((row) => Number(row.id)))
  })
})
