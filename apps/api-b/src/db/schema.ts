import { accountColumns, accountIndexes } from '@weft/api-shared/db/accounts'
import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core'

/**
 * Accounts (`@weft/api-shared`'s columns and duplicate checks).
 *
 * `token_version` is copied into every access token; deleting the account or changing its password
 * bumps it (or removes the row), which invalidates every token issued before.
 */
export const users = pgTable(
  'users',
  {
    ...accountColumns(),
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  accountIndexes,
)

/** A row of `users` as drizzle returns it. */
export type UserRow = typeof users.$inferSelect
