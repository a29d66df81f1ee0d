import { sql } from 'drizzle-orm'
import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

/**
 * Accounts. Emails are stored trimmed and lower-cased and usernames are unique regardless of case,
 * so the two unique indexes are the duplicate checks (a conflicting insert or update fails with
 * SQLSTATE 23505, which the API answers with 409).
 *
 * `token_version` is copied into every access token; deleting the account or changing its password
 * bumps it (or removes the row), which invalidates every token issued before.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_username_key').on(sql`lower(${t.username})`)],
)

/** A row of `users` as drizzle returns it. */
export type UserRow = typeof users.$inferSelect
