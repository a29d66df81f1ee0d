import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { Database } from '../db/client.js'
import { refreshTokens, revokedTokens, sessions } from '../db/schema.js'
import { invalidToken } from '../http/errors.js'
import type { AccessClaims, Principal, TokenPair } from './tokens.js'

/** Signs access-token claims (the app's @fastify/jwt signer, HS256). */
export type SignAccessToken = (claims: AccessClaims) => string

export interface SessionOptions {
  db: Database
  sign: SignAccessToken
  accessTokenTtl: number
  refreshTokenTtl: number
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/**
 * Login sessions: each login opens a session (a refresh-token family); access tokens carry its id.
 * Refresh rotates the refresh token in one transaction; presenting an already-rotated refresh token
 * revokes the whole session. Logout revokes the access token's `jti` and the session.
 */
export function createSessions({ db, sign, accessTokenTtl, refreshTokenTtl }: SessionOptions) {
  type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

  const newRefreshToken = async (tx: Database | Tx, sessionId: string) => {
    const token = randomBytes(32).toString('base64url')
    await tx.insert(refreshTokens).values({
      tokenHash: hashToken(token),
      sessionId,
      expiresAt: new Date(Date.now() + refreshTokenTtl * 1000),
    })
    return token
  }

  const pair = (userId: number, sessionId: string, refreshToken: string): TokenPair => {
    const iat = Math.floor(Date.now() / 1000)
    const claims = { sub: String(userId), sid: sessionId, jti: randomUUID(), iat, exp: iat + accessTokenTtl }
    return { access_token: sign(claims), token_type: 'Bearer', expires_in: accessTokenTtl, refresh_token: refreshToken }
  }

  const revokeJti = (tx: Database | Tx, principal: Principal) =>
    tx.insert(revokedTokens).values({ jti: principal.jti, expiresAt: principal.expiresAt }).onConflictDoNothing()

  // Runs on every authenticated request: its SQL is built once, and PostgreSQL plans it once per connection.
  const liveQuery = db
    .select({
      revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${sql.placeholder('jti')})`,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
      ),
    )
    .prepare('session_is_live')

  return {
    /** Opens a session for a user who just proved their password. */
    async start(userId: number): Promise<TokenPair> {
      const sessionId = randomUUID()
      const refreshToken = await db.transaction(async (tx) => {
        await tx.insert(sessions).values({ id: sessionId, userId })
        return newRefreshToken(tx, sessionId)
      })
      return pair(userId, sessionId, refreshToken)
    },

    /** True when the access token's session is live and its `jti` not revoked (one round trip, prepared once). */
    async isLive(principal: Principal): Promise<boolean> {
      const rows = (await liveQuery.execute({
        jti: principal.jti,
        sessionId: principal.sessionId,
        userId: principal.userId,
      })) as { revoked: boolean }[]
      const row = rows[0]
      return row !== undefined && !row.revoked
    },

    /**
     * Exchanges a refresh token for a new pair. The token is looked up first, whoever presents it: an
     * already-rotated one revokes its whole session (RFC 9700 §4.14), so a thief who rotated first loses the
     * session as soon as the victim replays the old token, and the victim's session dies if the thief
     * replays. Only then is the optional access token checked: it must be authentic (expired is fine) and
     * of the same session; it is revoked with the rotation.
     */
    async rotate(refreshToken: string, presenter: Principal | 'invalid' | undefined): Promise<TokenPair> {
      type Outcome = { failure: string } | { userId: number; sessionId: string; token: string }
      const outcome = await db.transaction(async (tx): Promise<Outcome> => {
        const [row] = await tx
          .select({
            id: refreshTokens.id,
            sessionId: refreshTokens.sessionId,
            expiresAt: refreshTokens.expiresAt,
            usedAt: refreshTokens.usedAt,
            userId: sessions.userId,
            revokedAt: sessions.revokedAt,
          })
          .from(refreshTokens)
          .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
          .where(eq(refreshTokens.tokenHash, hashToken(refreshToken)))
          .for('update', { of: refreshTokens })
        if (!row) return { failure: 'refresh token is not valid' }
        if (row.usedAt) {
          await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, row.sessionId))
          return { failure: 'refresh token was already used; the session has been revoked' }
        }
        if (presenter === 'invalid') return { failure: 'the access token is not authentic' }
        if (presenter && (presenter.sessionId !== row.sessionId || presenter.userId !== row.userId)) {
          return { failure: 'refresh token is not valid for this session' }
        }
        if (row.revokedAt) return { failure: 'the session has been revoked' }
        if (row.expiresAt.getTime() <= Date.now()) return { failure: 'refresh token has expired' }
        await tx.update(refreshTokens).set({ usedAt: new Date() }).where(eq(refreshTokens.id, row.id))
        if (presenter) await revokeJti(tx, presenter)
        return { userId: row.userId, sessionId: row.sessionId, token: await newRefreshToken(tx, row.sessionId) }
      })
      if ('failure' in outcome) throw invalidToken(outcome.failure)
      return pair(outcome.userId, outcome.sessionId, outcome.token)
    },

    /** Revokes the access token (until its expiry) and its whole session; drops revocations that expired. */
    async logout(principal: Principal): Promise<void> {
      await db.transaction(async (tx) => {
        await revokeJti(tx, principal)
        await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, principal.sessionId))
        await tx.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()))
      })
    },

    /** Revokes every session of a user (password change): all their access and refresh tokens stop working. */
    async revokeAll(tx: Database | Tx, userId: number): Promise<void> {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    },
  }
}

/** The session service of one app. */
export type Sessions = ReturnType<typeof createSessions>
