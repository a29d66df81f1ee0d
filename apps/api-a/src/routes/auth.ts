import { noStore } from '@weft/api-shared/http/cache'
import { success } from '@weft/api-shared/http/envelope'
import { SuccessEnvelopeSchema } from '@weft/api-shared/schemas/envelope'
import type { WeftTypeProvider } from '@weft/binding'
import { eq } from 'drizzle-orm'
import type { FastifyPluginAsync, RawServerDefault } from 'fastify'
import { Type } from 'typebox'
import { attemptKeys } from '../auth/attempts.js'
import { requirePrincipal } from '../auth/authenticate.js'
import { assertPasswordBytes, normalizeEmail } from '../auth/normalize.js'
import type { Database } from '../db/client.js'
import { users } from '../db/schema.js'
import { invalidCredentials } from '../http/errors.js'
import { bodyErrors, responses, serverErrors, tokenErrors } from '../schemas/responses.js'
import { LoginBody, RefreshBody, RegisterBody } from '../schemas/users.js'
import { publicUser } from './views.js'

export interface AuthRoutesOptions {
  db: Database
  /** Per-IP limit of login and register requests per window. */
  rateLimit: { max: number; timeWindow: number }
}

const secured = [{ bearerAuth: [] }]
const UserEnvelope = SuccessEnvelopeSchema(Type.Ref('User'))
const TokenPairEnvelope = SuccessEnvelopeSchema(Type.Ref('TokenPair'))

/** `/api/auth/*`: register, login, logout, refresh-token. */
export const authRoutes: FastifyPluginAsync<AuthRoutesOptions, RawServerDefault, WeftTypeProvider> = async (
  app,
  { db, rateLimit },
) => {
  // Tokens and account data must not be stored by any cache (RFC 6749 §5.1, RFC 9111): every answer here.
  app.addHook('onRequest', noStore)
  const limited = { rateLimit: { ...rateLimit, keyGenerator: (request: { ip: string }) => request.ip } }

  app.post(
    '/api/auth/register',
    {
      config: limited,
      schema: {
        operationId: 'register',
        tags: ['auth'],
        summary: 'Register a new user',
        security: [],
        body: RegisterBody,
        response: responses(
          {
            201: {
              description: 'the user is registered; `Location` is its path',
              body: UserEnvelope,
              headers: ['location'],
            },
          },
          [...bodyErrors, 'CONFLICT', 'RATE_LIMITED', ...serverErrors],
          { rateLimited: true },
        ),
      },
    },
    async (request, reply) => {
      const { body } = request
      assertPasswordBytes(body.password)
      const passwordHash = await app.passwords.hash(body.password)
      // The unique indexes decide duplicates (23505 → 409): no check-then-insert race.
      const [row] = await db
        .insert(users)
        .values({ username: body.username, email: normalizeEmail(body.email), passwordHash })
        .returning()
      if (!row) throw new Error('insert returned no row')
      reply.code(201).header('location', `/api/users/${row.id}`)
      return success('user registered', publicUser(row))
    },
  )

  app.post(
    '/api/auth/login',
    {
      config: limited,
      schema: {
        operationId: 'login',
        tags: ['auth'],
        summary: 'Log in; returns an access token and a refresh token',
        security: [],
        body: LoginBody,
        response: responses(
          { 200: { description: 'logged in: a new session and its token pair', body: TokenPairEnvelope } },
          [...bodyErrors, 'INVALID_CREDENTIALS', 'RATE_LIMITED', ...serverErrors],
          { rateLimited: true },
        ),
      },
    },
    async (request) => {
      const { body } = request
      const [user] = await db
        .select({ id: users.id, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.email, normalizeEmail(body.email)))
      // Counted before any scrypt work, against the address and the account (the email, when unknown).
      await app.passwordAttempts.consume(
        attemptKeys(request.ip, user ? String(user.id) : `email:${normalizeEmail(body.email)}`),
      )
      // Unknown emails cost one scrypt run too, so timing does not tell which emails exist.
      const ok = user
        ? await app.passwords.verify(body.password, user.passwordHash)
        : await app.passwords.verifyNothing(body.password)
      if (!user || !ok) throw invalidCredentials()
      return success('logged in', await app.sessions.start(user.id))
    },
  )

  app.post(
    '/api/auth/logout',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'logout',
        tags: ['auth'],
        summary: 'Log out: revokes the access token and its refresh tokens',
        security: secured,
        response: responses(
          { 200: { description: 'logged out; `data` is null', body: SuccessEnvelopeSchema(Type.Null()) } },
          [...tokenErrors, ...bodyErrors, ...serverErrors],
        ),
      },
    },
    async (request) => {
      await app.sessions.logout(requirePrincipal(request))
      return success('logged out', null)
    },
  )

  app.post(
    '/api/auth/refresh-token',
    {
      schema: {
        operationId: 'refreshToken',
        tags: ['auth'],
        summary: 'Exchange the refresh token for a new token pair (rotation)',
        description:
          'Works after the access token has expired. The Authorization header is optional; when sent, its access ' +
          "token must be authentic (expired is fine) and of the refresh token's session. Presenting a refresh token " +
          'that was already rotated revokes its whole session.',
        security: [{}, { bearerAuth: [] }],
        body: RefreshBody,
        response: responses(
          { 200: { description: 'a new token pair; the refresh token sent is used up', body: TokenPairEnvelope } },
          [...bodyErrors, 'INVALID_TOKEN', ...serverErrors],
        ),
      },
    },
    async (request) => {
      const { refresh_token } = request.body
      return success('token refreshed', await app.sessions.rotate(refresh_token, app.presenter(request)))
    },
  )
}
