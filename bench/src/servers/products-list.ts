// (c) baselines: `GET /api/products` written by hand with drizzle (on bare Fastify, Express 5 and Hono:
// products-hand.ts, products-express.ts, products-hono.ts), same database and driver as API A: whole-decimal page/limit, an allowed-sort list, `limit + 1` rows for has_more,
// and the same answer byte for byte: envelope and links (a page request carries no next_cursor: a
// cursor is a walk of its own), so the comparison measures Weft's overhead, not a missing feature.
import { products } from '@weft/api-a/src/db/schema.ts'
// API A's own row-to-JSON mapping: the answer must match byte for byte, and it is not what (c) measures.
import { publicProduct } from '@weft/api-a/src/routes/views.ts'
import { asc, desc } from 'drizzle-orm'
import { openBenchDatabase } from './api-a-env.js'

export const database = await openBenchDatabase()
const { db } = database
const columns = { id: products.id, title: products.title, amount: products.amount, created_at: products.createdAt }
type Field = keyof typeof columns
const whole = /^\d{1,9}$/

function integer(raw: unknown, fallback: number, min: number, max: number): number {
  const value = typeof raw === 'string' && whole.test(raw) ? Number(raw) : fallback
  return Math.min(Math.max(value, min), max)
}

function sortOf(raw: unknown): { field: Field; order: 'asc' | 'desc' }[] {
  const sort: { field: Field; order: 'asc' | 'desc' }[] = []
  for (const item of typeof raw === 'string' ? raw.split(',') : []) {
    const name = item.trim().replace(/^-/, '')
    if (name in columns && !sort.some((s) => s.field === name)) {
      sort.push({ field: name as Field, order: item.trim().startsWith('-') ? 'desc' : 'asc' })
    }
  }
  return sort.length > 0 ? sort : [{ field: 'id', order: 'asc' }]
}

function link(query: Record<string, string>, page: number): string {
  return `/api/products?${new URLSearchParams({ ...query, page: String(page) }).toString()}`
}

/** The product list of `query` (page, limit, sort), as API A answers it. */
export async function listProducts(query: Record<string, string>) {
  const page = integer(query.page, 1, 1, 1_000_000)
  const limit = integer(query.limit, 10, 1, 100)
  const sort = sortOf(query.sort)
  const order = sort.map(({ field, order }) => (order === 'desc' ? desc(columns[field]) : asc(columns[field])))
  if (!sort.some((s) => s.field === 'id')) order.push(sort[0]!.order === 'desc' ? desc(products.id) : asc(products.id))
  const rows = await db
    .select()
    .from(products)
    .orderBy(...order)
    .limit(limit + 1)
    .offset((page - 1) * limit)
  const hasMore = rows.length > limit
  const items = rows.slice(0, limit)
  return {
    status: 'success',
    message: 'products listed',
    data: items.map(publicProduct),
    meta: {
      pagination: {
        page,
        limit,
        offset: 0,
        sort,
        cursor: '',
        has_more: hasMore,
        next_cursor: '',
        links: { next: hasMore ? link(query, page + 1) : null, prev: page > 1 ? link(query, page - 1) : null },
      },
    },
  }
}
