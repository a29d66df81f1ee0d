import { eq, sql } from 'drizzle-orm'
import type { Database } from './client.js'
import { type UserRow, users } from './schema.js'

/** The columns a new account needs; the password already hashed and the email normalised. */
export interface NewUser {
  username: string
  email: string
  passwordHash: string
}

/** Changes to an account; `passwordHash` also bumps the token version (every old token dies). */
export interface UserChanges {
  username?: string
  email?: string
  passwordHash?: string
}

/**
 * Queries on `users`. Duplicates are not checked beforehand: the unique indexes reject them inside
 * the insert or update (SQLSTATE 23505), so two concurrent registrations cannot both win.
 */
export function usersRepository(db: Database) {
  return {
    async insert(user: NewUser): Promise<UserRow> {
      const [row] = await db.insert(users).values(user).returning()
      if (!row) throw new Error('insert returned no row')
      return row
    },

    async findById(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id))
      return row
    },

    /** Case-insensitive, served by the `lower(username)` unique index. */
    async findByUsername(username: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`)
      return row
    },

    async update(id: number, changes: UserChanges): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({
          ...changes,
          updatedAt: sql`now()`,
          ...(changes.passwordHash === undefined ? {} : { tokenVersion: sql`${users.tokenVersion} + 1` }),
        })
        .where(eq(users.id, id))
        .returning()
      return row
    },

    async delete(id: number): Promise<boolean> {
      const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id })
      return deleted.length > 0
    },
  }
}

/** The repository's type, for injection. */
export type UsersRepository = ReturnType<typeof usersRepository>
