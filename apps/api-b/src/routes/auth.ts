import { noStore } from '@weft/api-shared/http/cache'
import { success } from '@weft/api-shared/http/envelope'
import { SuccessEnvelopeSchema } from '@weft/api-shared/schemas/envelope'
import { routeRequest } from '@weft/binding'
import { handle } from '@weft/context'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import { attemptKeys, type PasswordAttempts } from '../auth/attempts.js'
import type { PasswordHasher } from '../auth/password.js'
import { issueAccessToken } from '../auth/tokens.js'
import type { UsersRepository } from '../db/users.js'
import { ApiErrors } from '../http/errors.js'
import { bodyErrors, responses, serverErrors } from '../schemas/responses.js'
import { LoginBody } from '../schemas/users.js'

export interface AuthRoutesOptions {
  repository: UsersRepository
  hasher: PasswordHasher
  /** The password-check budget per IP and per account, shared with PATCH and DELETE. */
  attempts: PasswordAttempts
  tokenTtlSeconds: number
  /** Login attempts one IP may make per window. */
  rateLimit: { max: number; timeWindow: number }
}

/** The bound body of the login route, for `routeRequest()`. */
const login = { body: LoginBody }

/** `POST /api/auth/login`: username + password → a bearer token. */
export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, options) => {
  const { repository, hasher, attempts, tokenTtlSeconds, rateLimit } = options

  // Tokens and account data must not be stored by any cache (RFC 6749 §5.1, RFC 9111): every answer here.
  app.addHook('onRequest', noStore)

  app.post(
    '/api/auth/login',
    {
      config: { rateLimit },
      schema: {
        operationId: 'login',
        summary: 'Log in',
        description: 'Unknown usernames and wrong passwords get the same answer after the same work.',
        tags: ['auth'],
        security: [],
        body: LoginBody,
        response: responses(
          { 200: { description: 'logged in: an access token', body: SuccessEnvelopeSchema(Type.Ref('AccessToken')) } },
          [...bodyErrors, 'INVALID_CREDENTIALS', 'RATE_LIMITED', ...serverErrors],
          { rateLimited: true },
        ),
      },
    },
    handle(async (c) => {
      const { username, password } = routeRequest(login, c).body
      const user = await repository.findByUsername(username)
      // Counted before any scrypt work, against the address and the account (the name, when unknown).
      attempts.consume(attemptKeys(c.request().ip, user ? String(user.id) : `name:${username.toLowerCase()}`))
      // Always one scrypt run: against the user's hash, or a dummy one when there is no such user.
      const valid = await hasher.verify(password, user?.passwordHash)
      if (!user || !valid) throw new ApiErrors.InvalidCredentials()
      return success('logged in', issueAccessToken(app, user, tokenTtlSeconds))
    }),
  )
}
