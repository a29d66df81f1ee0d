/** The columns of an account row that clients may see (both APIs' `users` tables have them). */
export interface UserColumns {
  id: number
  username: string
  email: string
  createdAt: Date
  updatedAt: Date
}

/** An account as the APIs show it: an explicit allow-list in snake_case, so no hash can slip out. */
export function publicUser(row: UserColumns) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }
}
