import fastifyJwt from '@fastify/jwt'
import { jwtReason } from '@weft/api-shared/auth/jwt-reasons'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Settings } from '../config/settings.js'
import type { Database } from '../db/client.js'
import { invalidToken, unauthenticated } from '../http/errors.js'
import { type AttemptCounter, createPasswordAttempts, memoryAttemptCounter, type PasswordAttempts } from './attempts.js'
import { createPasswordHasher, type PasswordHasher, SCRYPT_CONCURRENCY, SCRYPT_MAX_WAITING } from './password.js'
import { createSessions, type Sessions } from './sessions.js'
import { createAccessVerifier } from './signing-keys.js'
import { type AccessClaims, type Principal, principalOf } from './tokens.js'
import { createWorkLimit } from './work-limit.js'

/** The settings the password and token checks read; the rest is documented on `Settings`. */
type AuthSettings = Pick<
  Settings,
  | 'secret'
  | 'previousSecret'
  | 'accessTokenTtl'
  | 'refreshTokenTtl'
  | 'scryptCost'
  | 'passwordQueueMax'
  | 'authRateLimit'
  | 'authRateWindowMs'
>

export interface AuthOptions extends AuthSettings {
  db: Database
  /** Where password attempts are counted (shared by replicas through Redis); this process's memory by default. */
  attemptCounter?: AttemptCounter
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: PasswordHasher
    /** The budget of password checks per IP and per account, shared by every route that verifies one. */
    passwordAttempts: PasswordAttempts
    sessions: Sessions
    /** `onRequest` hook of protected routes: verifies the bearer token and sets `request.principal`. */
    authenticate(request: FastifyRequest): Promise<void>
    /**
     * The caller an optional bearer token names, for the refresh route: verified like any access token
     * (signature, HS256, claims) except its expiry, and not checked against revocations (the session is).
     * Undefined without an `Authorization` header, `'invalid'` for a header or token that is not authentic.
     */
    presenter(request: FastifyRequest): Principal | 'invalid' | undefined
  }
  interface FastifyRequest {
    /** The authenticated caller; set on routes that use `app.authenticate`. */
    principal: Principal | null
  }
}

/** Tokens longer than this are refused before any parsing (ours are ~300 bytes). */
const MAX_TOKEN_LENGTH = 2048

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
    app.decorate(
      'passwords',
      createPasswordHasher(
        options.scryptCost,
        createWorkLimit(SCRYPT_CONCURRENCY, options.passwordQueueMax ?? SCRYPT_MAX_WAITING),
      ),
    )
    app.decorate(
      'passwordAttempts',
      createPasswordAttempts(
        options.attemptCounter ?? memoryAttemptCounter(options.authRateLimit, options.authRateWindowMs),
      ),
    )
    app.decorate(
      'sessions',
      createSessions({
        db: options.db,
        sign: (claims: AccessClaims) => app.jwt.sign(claims),
        accessTokenTtl: options.accessTokenTtl,
        refreshTokenTtl: options.refreshTokenTtl,
      }),
    )
    const verifyAccess = createAccessVerifier(app.jwt, options.previousSecret)
    app.decorateRequest('principal', null)
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerToken(request)
      let claims: unknown
      try {
        claims = verifyAccess(token)
      } catch (error) {
        throw invalidToken(jwtReason(error))
      }
      const principal = principalOf(claims)
      if (!principal) throw invalidToken('token claims are not valid')
      if (!(await app.sessions.isLive(principal))) throw invalidToken('token has been revoked')
      request.principal = principal
    })
    app.decorate('presenter', (request: FastifyRequest) => {
      if (request.headers.authorization === undefined) return undefined
      try {
        return principalOf(verifyAccess(bearerToken(request), { ignoreExpiration: true })) ?? 'invalid'
      } catch {
        return 'invalid'
      }
    })
  },
  { name: 'api-a-auth', fastify: '5.x' },
)

/** The caller of a route protected by `app.authenticate`. */
export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated()
  return request.principal
}
