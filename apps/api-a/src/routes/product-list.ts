import { createHmac } from 'node:crypto'
import { success } from '@weft/api-shared/http/envelope'
import { fromContext, type PageInfo, paginate } from '@weft/pagination'
import { paginateQuery } from '@weft/pagination/drizzle'
import { getTableColumns, sql } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import type { Database } from '../db/client.js'
import { products } from '../db/schema.js'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from '../schemas/products.js'
import { publicProduct } from './views.js'

/** The sortable columns: the query's `sort` names are looked up here and never reach SQL as text. */
const sortColumns = {
  id: products.id,
  title: products.title,
  amount: products.amount,
  created_at: { column: products.createdAt, key: 'createdAt' },
} as const

/** A product row plus the exact cursor text `paginateQuery`'s `select` adds (removed by `finish`). */
type CursorRow = typeof products.$inferSelect & { weftCursor: string }

/** Most page queries kept prepared (one per sort seen). */
const MAX_PREPARED_SORTS = 64

/** `GET /api/products`: its pagination hook (config resolved once) and handler. */
export function listProducts(db: Database, secrets: readonly string[]) {
  const hook = paginate({
    sortKey: 'sort',
    allowedSorts: Object.keys(sortColumns),
    defaultSort: 'id',
    defaultLimit: DEFAULT_LIMIT,
    maxLimit: MAX_LIMIT,
    // The first key signs, any verifies: cursors made before a key rotation keep working during it.
    cursorSecret: secrets.map((secret) => createHmac('sha256', secret).update('weft-api-a cursor').digest()),
    sortFingerprint: true,
    maxOffset: MAX_OFFSET,
  })

  // Page/offset queries differ only by their sort, so each sort's query is built and prepared once
  // (drizzle builds no SQL per request, PostgreSQL plans it once per connection); limit and offset are
  // placeholders. Cursor queries carry their keyset condition and are built per request.
  let prepared = 0
  const preparePageQuery = (query: ReturnType<typeof paginateQuery>) =>
    db
      .select({ ...getTableColumns(products), ...query.select })
      .from(products)
      .orderBy(...query.orderBy)
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
      statement = preparePageQuery(query)
      pageQueries.set(key, statement)
    }
    // The driver-generic `Database` types a prepared select's rows loosely; they are the table's rows.
    return statement.execute({ limit: query.limit, offset: query.offset }) as Promise<CursorRow[]>
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
            .select({ ...getTableColumns(products), ...query.select })
            .from(products)
            .where(query.where)
            .orderBy(...query.orderBy)
            .limit(query.limit)
            .offset(query.offset)
    const items = query.finish(rows)
    return success('products listed', items.map(publicProduct), {
      pagination: { ...page.toJSON(), links: page.links(request.url) },
    })
  }

  return { hook, handler }
}
