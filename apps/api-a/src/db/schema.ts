import { accountColumns, accountIndexes } from '@weft/api-shared/db/accounts'
import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

/** Millisecond precision: the values round-trip through JS `Date`s and cursor tokens unchanged. */
const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
}

/** Accounts (`@weft/api-shared`'s columns and duplicate checks). */
export const users = pgTable('users', { ...accountColumns(), ...timestamps }, accountIndexes)

/** Products: each records its owner; deleting the owner deletes their products. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    amount: integer('amount').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    check('products_amount_check', sql`${t.amount} >= 0`),
    index('products_owner_id_idx').on(t.ownerId),
    // Keyset pagination walks (sort column, id) in either direction.
    index('products_title_id_idx').on(t.title, t.id),
    index('products_amount_id_idx').on(t.amount, t.id),
    index('products_created_at_id_idx').on(t.createdAt, t.id),
  ],
)

/**
 * A login session: the family of one login's refresh tokens and the access tokens issued with them.
 * Revoking it (logout, refresh-token reuse, password change) invalidates every token of the family at once.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
)

/** Refresh tokens, stored as SHA-256 hashes (the token itself is 32 random bytes, never stored). */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the token is rotated; a second use of a used token revokes the whole session. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_token_hash_key').on(t.tokenHash),
    index('refresh_tokens_session_id_idx').on(t.sessionId),
  ],
)

/** Access tokens revoked by logout, kept until they would have expired anyway. */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: uuid('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_tokens_expires_at_idx').on(t.expiresAt)],
)
