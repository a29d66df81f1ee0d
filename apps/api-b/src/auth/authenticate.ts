import type { Ctx, Handler } from '@weft/context'
import type { FastifyInstance } from 'fastify'
import type { UserRow } from '../db/schema.js'
import { ApiErrors } from '../http/errors.js'
import type { UsersRepository } from '../users/repository.js'
import type { AccessClaims } from './tokens.js'

/** Longer `Authorization` values are refused before any parsing (a real token is ~200 characters). */
const MAX_HEADER_LENGTH = 2048

/** `Bearer <jwt>`; the scheme is case-insensitive (RFC 9110), the token three base64url parts. */
const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i

/** The `locals` key under which {@link requireAccount} leaves the caller's row. */
const CALLER = 'caller'

function tokenFrom(c: Ctx): string {
  const header = c.get('authorization')
  if (header === '') throw new ApiErrors.Unauthenticated()
  if (header.length > MAX_HEADER_LENGTH) throw new ApiErrors.InvalidToken('token too long')
  const match = BEARER.exec(header)
  if (!match?.[1]) throw new ApiErrors.InvalidToken('malformed Authorization header: send Bearer <token>')
  return match[1]
}

function messageFor(error: unknown): string {
  const code = (error as { code?: unknown }).code
  if (code === 'FAST_JWT_EXPIRED') return 'token expired'
  if (code === 'FAST_JWT_INACTIVE') return 'token not yet valid'
  return 'invalid token'
}

function subjectId(sub: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(sub)) return undefined
  const id = Number(sub)
  return id <= 2_147_483_647 ? id : undefined
}

/**
 * The first link of a protected route's `handle()` chain: verifies the bearer token (signature,
 * HS256 only, expiry, issuer), loads its user and compares the token version, so a token of a
 * deleted account or one issued before a password change is refused. Then it leaves the caller's
 * row in `c.locals` and runs the rest of the chain.
 *
 * @example
 * app.get('/api/user/:id', handle(requireAccount(app, users), (c) => callerOf(c).username))
 */
export function requireAccount(app: FastifyInstance, repository: UsersRepository): Handler {
  return async (c) => {
    const token = tokenFrom(c)
    let claims: AccessClaims
    try {
      claims = app.jwt.verify<AccessClaims>(token)
    } catch (error) {
      throw new ApiErrors.InvalidToken(messageFor(error))
    }
    const id = subjectId(claims.sub)
    if (id === undefined || !Number.isSafeInteger(claims.ver)) throw new ApiErrors.InvalidToken('invalid token')
    const caller = await repository.findById(id)
    if (!caller || caller.tokenVersion !== claims.ver) throw new ApiErrors.InvalidToken('token is no longer valid')
    c.locals(CALLER, caller)
    return c.next()
  }
}

/** The account {@link requireAccount} authenticated for this request. */
export function callerOf(c: Ctx): UserRow {
  const caller = c.locals<UserRow | undefined>(CALLER)
  if (!caller) throw new ApiErrors.Unauthenticated()
  return caller
}
