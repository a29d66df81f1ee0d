// (c) baseline: `GET /api/products` written by hand on bare Fastify with drizzle, same database and
// driver as API A: whole-decimal page/limit, an allowed-sort list, `limit + 1` rows for has_more,
// and the same answer byte for byte: envelope, links, and a next_cursor signed the way API A signs
// it (base64url JSON, a sort fingerprint, an HMAC-SHA256), so the comparison measures Weft's
// overhead, not a missing feature.
import { createHash, createHmac } from 'node:crypto'
import { products } from '@weft/api-a/src/db/schema.ts'
// API A's own row-to-JSON mapping: the answer must match byte for byte, and it is not what (c) measures.
import { publicProduct } from '@weft/api-a/src/routes/views.ts'
import { asc, desc } from 'drizzle-orm'
import Fastify from 'fastify'
import { benchSecret, openBenchDatabase } from './api-a-env.js'
import { serve } from './serve.js'

const database = await openBenchDatabase()
const { db } = database
const columns = { id: products.id, title: products.title, amount: products.amount, created_at: products.createdAt }
type Field = keyof typeof columns
const keys: Record<Field, 'id' | 'title' | 'amount' | 'createdAt'> = {
  id: 'id',
  title: 'title',
  amount: 'amount',
  created_at: 'createdAt',
}
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

/** API A's cursor key, derived from its secret as API A does. */
const cursorKey = createHmac('sha256', benchSecret).update('weft-api-a cursor').digest()

function signedCursor(values: Record<string, unknown>, sort: { field: Field; order: 'asc' | 'desc' }[]): string {
  const payload = Buffer.from(JSON.stringify(values)).toString('base64url')
  const canonical = sort.map(({ field, order }) => `${JSON.stringify(field)}${order === 'desc' ? '-' : '+'}`).join('')
  const fingerprint = createHash('sha256').update(canonical).digest().subarray(0, 9).toString('base64url')
  const token = `${payload}.${fingerprint}`
  return `${token}.${createHmac('sha256', cursorKey).update(token).digest('base64url')}`
}

function link(query: Record<string, string>, page: number): string {
  return `/api/products?${new URLSearchParams({ ...query, page: String(page) }).toString()}`
}

const app = Fastify({ logger: false })
// The explanatory comparison x-helmet adds the security headers API A sends (@fastify/helmet defaults).
if (process.env.BENCH_HELMET === '1') await app.register((await import('@fastify/helmet')).default)
app.get('/api/products', async (request) => {
  const query = request.query as Record<string, string>
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
  const last = items.at(-1)
  const cursorValues = hasMore && last ? Object.fromEntries(sort.map((s) => [s.field, last[keys[s.field]]])) : {}
  if (hasMore && last) cursorValues.id = last.id
  const nextCursor = hasMore && last ? signedCursor(cursorValues, sort) : ''
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
        next_cursor: nextCursor,
        links: { next: hasMore ? link(query, page + 1) : null, prev: page > 1 ? link(query, page - 1) : null },
      },
    },
  }
})
await serve(app, {}, () => database.close())
