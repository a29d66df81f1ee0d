import fastifyJwt from '@fastify/jwt'
import type { FastifyInstance } from 'fastify'
import type { UserRow } from '../db/schema.js'
import type { AccessToken } from '../schemas/users.js'

/** Issuer written into and required from every token. */
export const ISSUER = 'weft-api-b'

/** Claims of an access token: `sub` is the user id, `ver` the user's token version when issued. */
export interface AccessClaims {
  sub: string
  ver: number
  iat: number
  exp: number
  iss: string
}

/**
 * Registers @fastify/jwt with HS256 pinned on both ends: a token signed with any other algorithm
 * (including `none`) is rejected, as is one without `sub`, `ver`, `exp` or the issuer.
 */
export async function registerTokens(app: FastifyInstance, secret: string, ttlSeconds: number): Promise<void> {
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: ttlSeconds, iss: ISSUER },
    verify: { algorithms: ['HS256'], allowedIss: ISSUER, requiredClaims: ['sub', 'ver', 'exp', 'iat', 'iss'] },
  })
}

/** Signs an access token for `user` and returns login's response body. */
export function issueAccessToken(app: FastifyInstance, user: UserRow, ttlSeconds: number): AccessToken {
  const token = app.jwt.sign({ sub: String(user.id), ver: user.tokenVersion })
  return { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; ver: number }
  }
}
