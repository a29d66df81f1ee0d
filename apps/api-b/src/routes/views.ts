import type { UserRow } from '../db/schema.js'
import type { PublicUser } from '../schemas/users.js'

/** The public representation of an account: an explicit allow-list, so no hash can slip out. */
export function presentUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}
