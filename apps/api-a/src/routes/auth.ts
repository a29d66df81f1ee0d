import { eq } from 'drizzle-orm'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import { assertPasswordBytes, normalizeEmail } from '../auth/normalize.js'
import { requirePrincipal } from '../auth/plugin.js'
import type { Database } from '../db/client.js'
import { users } from '../db/schema.js'
import { success } from '../http/envelope.js'
import { invalidCredentials } from '../http/errors.js'
import { readBody } from '../http/input.js'
import { responses, SuccessEnvelopeSchema } from '../schemas/common.js'
import { LoginBody, PublicUser, RefreshBody, RegisterBody, TokenPairSchema } from '../schemas/users.js'
import { publicUser } from './views.js'

export interface AuthRoutesOptions {
  db: Database
  /** Per-IP limit of login and register requests per window. */
  rateLimit: { max: number; timeWindow: number }
}

const secured = [{ bearerAuth: [] }]

/** `/api/auth/*`: register, login, logout, refresh-token. */
export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, { db, rateLimit }) => {
  const limited = { rateLimit: { ...rateLimit, keyGenerator: (request: { ip: string }) => request.ip } }

  app.post(
    '/api/auth/register',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Register a new user',
        body: RegisterBody,
        response: responses({ 201: SuccessEnvelopeSchema(PublicUser) }),
      },
    },
    async (request, reply) => {
      const body = await readBody(request, RegisterBody)
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
        tags: ['auth'],
        summary: 'Log in; returns an access token and a refresh token',
        body: LoginBody,
        response: responses({ 200: SuccessEnvelopeSchema(TokenPairSchema) }),
      },
    },
    async (request) => {
      const body = await readBody(request, LoginBody)
      const [user] = await db
        .select({ id: users.id, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.email, normalizeEmail(body.email)))
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
        tags: ['auth'],
        summary: 'Log out: revokes the access token and its refresh tokens',
        security: secured,
        response: responses({ 200: SuccessEnvelopeSchema(Type.Null()) }),
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
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Exchange the refresh token for a new token pair (rotation)',
        security: secured,
        body: RefreshBody,
        response: responses({ 200: SuccessEnvelopeSchema(TokenPairSchema) }),
      },
    },
    async (request) => {
      const body = await readBody(request, RefreshBody)
      return success('token refreshed', await app.sessions.rotate(requirePrincipal(request), body.refresh_token))
    },
  )
}
