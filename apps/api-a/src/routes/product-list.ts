import { createHmac } from 'node:crypto'
import { success } from '@weft/api-shared/http/envelope'
import { fromContext, paginate } from '@weft/pagination'
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

/** Most list queries kept prepared (one per shape seen: a sort, and in cursor mode its null pattern). */
const MAX_PREPARED_SHAPES = 64

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

  // A list query's SQL depends only on its shape (the sort; in cursor mode also which cursor values
  // are null), so each shape's query is built and prepared once (drizzle builds no SQL per request,
  // PostgreSQL plans it once per connection); limit, offset and the cursor values are placeholders.
  let prepared = 0
  const prepareListQuery = (query: ReturnType<typeof paginateQuery>) =>
    db
      .select({ ...getTableColumns(products), ...query.select })
      .from(products)
      .where(query.where)
      .orderBy(...query.orderBy)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`products_list_${prepared++}`)
  const listQueries = new Map<string, ReturnType<typeof prepareListQuery>>()

  const listRows = (query: ReturnType<typeof paginateQuery>) => {
    let statement = listQueries.get(query.shape)
    if (statement === undefined) {
      // Bounded: the allowed sorts make few shapes, but a client picks them.
      if (listQueries.size >= MAX_PREPARED_SHAPES) listQueries.clear()
      statement = prepareListQuery(query)
      listQueries.set(query.shape, statement)
    }
    // The driver-generic `Database` types a prepared select's rows loosely; they are the table's rows.
    return statement.execute({ ...query.placeholders, limit: query.limit, offset: query.offset }) as Promise<
      CursorRow[]
    >
  }

  const handler = async (request: FastifyRequest) => {
    const page = fromContext(request)
    if (!page) throw new Error('pagination hook did not run')
    // Sort names map to columns here; cursor values are type-checked against the columns (400 otherwise).
    const query = paginateQuery(page, { columns: sortColumns, unique: 'id', placeholders: true })
    const rows = await listRows(query)
    const items = query.finish(rows)
    return success('products listed', items.map(publicProduct), {
      pagination: { ...page.toJSON(), links: page.links(request.url) },
    })
  }

  return { hook, handler }
}
