import type { products, users } from '../db/schema.js'

type UserRow = typeof users.$inferSelect
type ProductRow = typeof products.$inferSelect

/** A user as the API shows it (snake_case, never the password hash). */
export function publicUser(row: UserRow) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}

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
