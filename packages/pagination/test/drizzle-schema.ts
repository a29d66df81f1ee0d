import { integer, pgTable } from 'drizzle-orm/pg-core'

/** A small table for the type tests of `@weft/pagination/drizzle`. */
export const items = pgTable('items', {
  id: integer('id').primaryKey(),
  price: integer('price').notNull(),
})
