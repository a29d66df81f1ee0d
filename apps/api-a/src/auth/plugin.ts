import fastifyJwt from '@fastify/jwt'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Database } from '../db/client.js'
import { invalidToken, unauthenticated } from '../http/errors.js'
import { type AccessClaims, type Principal, principalOf } from './claims.js'
import { createPasswordHasher, type PasswordHasher } from './password.js'
import { createSessions, type Sessions } from './sessions.js'

export interface AuthOptions {
  db: Database
  secret: string
  accessTokenTtl: number
  refreshTokenTtl: number
  scryptCost: number
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: PasswordHasher
    sessions: Sessions
    /** `onRequest` hook of protected routes: verifies the bearer token and sets `request.principal`. */
    authenticate(request: FastifyRequest): Promise<void>
  }
  interface FastifyRequest {
    /** The authenticated caller; set on routes that use `app.authenticate`. */
    principal: Principal | null
  }
}

/** Tokens longer than this are refused before any parsing (ours are ~300 bytes). */
const MAX_TOKEN_LENGTH = 2048

const jwtReasons: Record<string, string> = {
  FAST_JWT_EXPIRED: 'token has expired',
  FAST_JWT_INACTIVE: 'token is not valid yet',
  FAST_JWT_INVALID_SIGNATURE: 'signature does not match',
  FAST_JWT_INVALID_ALGORITHM: 'algorithm is not HS256',
  FAST_JWT_MISSING_SIGNATURE: 'token is not signed',
  FAST_JWT_MISSING_REQUIRED_CLAIM: 'a required claim is missing',
}

/** Reads `Authorization: Bearer <token>`, or explains what is wrong with the header. */
function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization
  if (header === undefined || header === '') throw unauthenticated()
  const [scheme, token, ...rest] = header.split(' ')
  if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length > 0) {
    throw invalidToken('the Authorization header must be "Bearer <access_token>"')
  }
  if (token.length > MAX_TOKEN_LENGTH) throw invalidToken('token is too long')
  return token
}

/**
 * Authentication: @fastify/jwt with HS256 pinned (signing and verifying), required `sub`/`sid`/`jti`/`iat`/
 * `exp` claims, scrypt password hashing and the login-session service.
 */
export const auth = fp<AuthOptions>(
  async (app, options) => {
    await app.register(fastifyJwt, {
      secret: options.secret,
      sign: { algorithm: 'HS256' },
      verify: { algorithms: ['HS256'], requiredClaims: ['sub', 'sid', 'jti', 'iat', 'exp'] },
    })
    app.decorate('passwords', createPasswordHasher(options.scryptCost))
    app.decorate(
      'sessions',
      createSessions({
        db: options.db,
        sign: (claims: AccessClaims) => app.jwt.sign(claims),
        accessTokenTtl: options.accessTokenTtl,
        refreshTokenTtl: options.refreshTokenTtl,
      }),
    )
    app.decorateRequest('principal', null)
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerToken(request)
      let claims: unknown
      try {
        claims = app.jwt.verify(token)
      } catch (error) {
        const code = (error as { code?: string }).code ?? ''
        throw invalidToken(jwtReasons[code] ?? 'token is malformed')
      }
      const principal = principalOf(claims)
      if (!principal) throw invalidToken('token claims are not valid')
      if (!(await app.sessions.isLive(principal))) throw invalidToken('token has been revoked')
      request.principal = principal
    })
  },
  { name: 'api-a-auth', fastify: '5.x' },
)

/** The caller of a route protected by `app.authenticate`. */
export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated()
  return request.principal
}
