import { paginate } from '@weft/pagination'
import { paginateQuery } from '@weft/pagination/drizzle'
import { and, eq, getTableColumns } from 'drizzle-orm'
import {
  boolean,
  numeric,
  type PgDatabase,
  type PgQueryResultHKT,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'
import type { FastifyInstance } from 'fastify'

export const products = pgTable('products', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  price: numeric('price', { precision: 12, scale: 2 }), // nullable; an exact string, never a float
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(), // microseconds
})

export function productRoutes(app: FastifyInstance, db: PgDatabase<PgQueryResultHKT>): void {
  const hook = paginate({ allowedSorts: ['id', 'price', 'name', 'created'] })
  app.get('/products', { onRequest: hook }, async (request) => {
    const page = hook.fromContext(request) // PageInfo<'id' | 'price' | 'name' | 'created'>
    const q = paginateQuery(page, {
      columns: {
        id: products.id,
        price: products.price,
        name: products.name,
        created: { column: products.createdAt, key: 'createdAt' }, // row property differs
      },
      unique: 'id', // unique NOT NULL tie-breaker, appended to the sort
      nulls: 'last', // default; or 'first'
    })
    const rows = await db
      .select({ ...getTableColumns(products), ...q.select }) // q.select: the exact cursor values
      .from(products)
      .where(and(eq(products.active, true), q.where))
      .orderBy(...q.orderBy)
      .limit(q.limit)
      .offset(q.offset)
    return { data: q.finish(rows), ...page.toJSON(), links: page.links(request.url) }
  })
}
