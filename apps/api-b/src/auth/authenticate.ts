import { jwtReason } from '@weft/api-shared/auth/jwt-reasons'
import { type Ctx, ctx } from '@weft/context'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { UserRow } from '../db/schema.js'
import type { UsersRepository } from '../db/users.js'
import { ApiErrors, invalidToken } from '../http/errors.js'
import { type AccessClaims, ISSUER } from './tokens.js'

/** Longer `Authorization` values are refused before any parsing (a real token is ~200 characters). */
const MAX_HEADER_LENGTH = 2048

/** `Bearer <jwt>`; the scheme is case-insensitive (RFC 9110), the token three base64url parts. */
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i

/** The `locals` key under which {@link authenticateAccount} leaves the caller's row. */
const CALLER = 'caller'

function tokenFrom(c: Ctx): string {
  const header = c.get('authorization')
  if (header === '') throw new ApiErrors.Unauthenticated()
  if (header.length > MAX_HEADER_LENGTH) throw invalidToken('token is too long')
  const match = BEARER.exec(header)
  if (!match?.[1]) throw invalidToken('the Authorization header must be "Bearer <access_token>"')
  return match[1]
}

/** Clock skew tolerated for `iat`: a token issued later than this in the future is refused. */
const MAX_CLOCK_SKEW_SECONDS = 30

/**
 * The claims as this API issues them, checked beyond what the verifier does: `iss` present and ours, `sub`
 * a string (a number would pass a regular expression test after coercion), `iat` a number not in the future.
 */
function claimsAreWellFormed(claims: Record<string, unknown>): boolean {
  if (claims.iss !== ISSUER || typeof claims.sub !== 'string') return false
  return typeof claims.iat === 'number' && claims.iat <= Date.now() / 1000 + MAX_CLOCK_SKEW_SECONDS
}

function subjectId(sub: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(sub)) return undefined
  const id = Number(sub)
  return id <= 2_147_483_647 ? id : undefined
}

/**
 * The `onRequest` hook of a protected route: verifies the bearer token (signature, HS256 only, expiry,
 * issuer), loads its user and compares the token version, so a token of a deleted account or one issued
 * before a password change is refused, and leaves the caller's row in the request's `Ctx` locals. It runs
 * before the body is read, so a caller without a valid token gets 401 whatever it sent (as in API A).
 *
 * @example
 * app.get('/api/user/:id', { onRequest: authenticateAccount(app, users) }, handle((c) => callerOf(c).username))
 */
export function authenticateAccount(
  app: FastifyInstance,
  repository: UsersRepository,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    const c = ctx(request, reply)
    const token = tokenFrom(c)
    let claims: AccessClaims
    try {
      claims = app.jwt.verify<AccessClaims>(token)
    } catch (error) {
      throw invalidToken(jwtReason(error))
    }
    if (!claimsAreWellFormed(claims as unknown as Record<string, unknown>)) {
      throw invalidToken('token claims are not valid')
    }
    const id = subjectId(claims.sub)
    if (id === undefined || !Number.isSafeInteger(claims.ver)) throw invalidToken('token claims are not valid')
    const caller = await repository.findById(id)
    if (!caller || caller.tokenVersion !== claims.ver) throw invalidToken('token has been revoked')
    c.locals(CALLER, caller)
  }
}

/** The account {@link authenticateAccount} authenticated for this request. */
export function callerOf(c: Ctx): UserRow {
  const caller = c.locals<UserRow | undefined>(CALLER)
  if (!caller) throw new ApiErrors.Unauthenticated()
  return caller
}
