import { createHmac } from 'node:crypto'
import { fromContext, type PageInfo, paginate } from '@weft/pagination'
import { paginateQuery } from '@weft/pagination/drizzle'
import { sql } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Database } from '../db/client.js'
import { products } from '../db/schema.js'
import { success } from '../http/envelope.js'
import { publicProduct } from './views.js'

/** The sortable columns: the query's `sort` names are looked up here and never reach SQL as text. */
const sortColumns = {
  id: products.id,
  title: products.title,
  amount: products.amount,
  created_at: { column: products.createdAt, key: 'createdAt' },
} as const

/** `meta` of the list answer: the PageInfo JSON plus `links`. */
export const PaginationMeta = Type.Object({
  pagination: Type.Object({
    page: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    sort: Type.Array(
      Type.Object({ field: Type.String(), order: Type.Union([Type.Literal('asc'), Type.Literal('desc')]) }),
    ),
    cursor: Type.String(),
    has_more: Type.Boolean(),
    next_cursor: Type.String(),
    links: Type.Object({
      next: Type.Union([Type.String(), Type.Null()]),
      prev: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
})

type ProductRow = typeof products.$inferSelect

/** Deepest offset a page/offset request may reach; deeper lists are walked with the cursor. */
const MAX_OFFSET = 100_000

/** Most page queries kept prepared (one per sort seen). */
const MAX_PREPARED_SORTS = 64

/** `GET /api/products`: its pagination hook (config resolved once) and handler. */
export function listProducts(db: Database, secret: string) {
  const hook = paginate({
    sortKey: 'sort',
    allowedSorts: Object.keys(sortColumns),
    defaultSort: 'id',
    cursorSecret: createHmac('sha256', secret).update('weft-api-a cursor').digest(),
    sortFingerprint: true,
    maxOffset: MAX_OFFSET,
  })

  // Page/offset queries differ only by their sort, so each sort's query is built and prepared once
  // (drizzle builds no SQL per request, PostgreSQL plans it once per connection); limit and offset are
  // placeholders. Cursor queries carry their keyset condition and are built per request.
  let prepared = 0
  const preparePageQuery = (orderBy: ReturnType<typeof paginateQuery>['orderBy']) =>
    db
      .select()
      .from(products)
      .orderBy(...orderBy)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`products_page_${prepared++}`)
  const pageQueries = new Map<string, ReturnType<typeof preparePageQuery>>()

  const pageRows = (page: PageInfo, query: ReturnType<typeof paginateQuery>) => {
    let key = ''
    for (const { field, order } of page.sort) key += `${order === 'desc' ? '-' : '+'}${field},`
    let statement = pageQueries.get(key)
    if (statement === undefined) {
      // Bounded: the allowed sorts make few keys, but a client picks them.
      if (pageQueries.size >= MAX_PREPARED_SORTS) pageQueries.clear()
      statement = preparePageQuery(query.orderBy)
      pageQueries.set(key, statement)
    }
    // The driver-generic `Database` types a prepared select's rows loosely; they are the table's rows.
    return statement.execute({ limit: query.limit, offset: query.offset }) as Promise<ProductRow[]>
  }

  const handler = async (request: FastifyRequest) => {
    const page = fromContext(request)
    if (!page) throw new Error('pagination hook did not run')
    // Sort names map to columns here; cursor values are type-checked against the columns (400 otherwise).
    const query = paginateQuery(page, { columns: sortColumns, unique: 'id' })
    const rows =
      query.where === undefined
        ? await pageRows(page, query)
        : await db
            .select()
            .from(products)
            .where(query.where)
            .orderBy(...query.orderBy)
            .limit(query.limit)
            .offset(query.offset)
    const items = query.finish(rows)
    const base = request.url
    const cursorMode = page.cursor !== ''
    const next = cursorMode ? page.nextCursorURL(base) : page.hasMore ? page.nextPageURL(base) : ''
    const prev = cursorMode ? '' : page.previousPageURL(base)
    return success('products listed', items.map(publicProduct), {
      pagination: { ...page.toJSON(), links: { next: next || null, prev: prev || null } },
    })
  }

  return { hook, handler }
}
