import type { products } from '../db/schema.js'

type ProductRow = typeof products.$inferSelect

export { publicUser } from '@weft/api-shared/routes/views'

/** A product as the API shows it. */
export function publicProduct(row: ProductRow) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    amount: row.amount,
    owner_id: row.ownerId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}
