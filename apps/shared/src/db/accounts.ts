import { sql } from 'drizzle-orm'
import { type AnyPgColumn, serial, text, uniqueIndex } from 'drizzle-orm/pg-core'

/** The columns every account row starts with; each app adds its own after them. */
export const accountColumns = () => ({
  id: serial('id').primaryKey(),
  username: text('username').notNull(),
  email: text('email').notNull(),
  passwordHash: text('password_hash').notNull(),
})

/**
 * Emails are stored trimmed and lower-cased and usernames are unique regardless of case, so these unique
 * indexes are the duplicate checks: a conflicting insert or update fails with SQLSTATE 23505 (answered 409).
 */
export const accountIndexes = (t: { email: AnyPgColumn; username: AnyPgColumn }) => [
  uniqueIndex('users_email_key').on(t.email),
  uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
]
