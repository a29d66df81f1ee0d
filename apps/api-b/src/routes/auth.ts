import { handle } from '@weft/context'
import type { FastifyPluginAsync } from 'fastify'
import type { PasswordHasher } from '../auth/password.js'
import { issueAccessToken } from '../auth/tokens.js'
import { ErrorEnvelopeSchema, SuccessEnvelopeSchema, success } from '../http/envelope.js'
import { ApiErrors } from '../http/errors.js'
import type { UsersRepository } from '../users/repository.js'
import { AccessToken, LoginBody } from '../users/schemas.js'

export interface AuthRoutesOptions {
  repository: UsersRepository
  hasher: PasswordHasher
  tokenTtlSeconds: number
  /** Login attempts one IP may make per window. */
  rateLimit: { max: number; timeWindow: number }
}

/** `POST /api/auth/login`: username + password → a bearer token. */
export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, options) => {
  const { repository, hasher, tokenTtlSeconds, rateLimit } = options

  app.post(
    '/api/auth/login',
    {
      config: { rateLimit },
      schema: {
        summary: 'Log in',
        description: 'Unknown usernames and wrong passwords get the same answer after the same work.',
        tags: ['auth'],
        body: LoginBody,
        response: { 200: SuccessEnvelopeSchema(AccessToken), '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema },
      },
    },
    handle(async (c) => {
      const { username, password } = await c.bind().json(LoginBody)
      const user = await repository.findByUsername(username)
      // Always one scrypt run: against the user's hash, or a dummy one when there is no such user.
      const valid = await hasher.verify(password, user?.passwordHash)
      if (!user || !valid) throw new ApiErrors.InvalidCredentials()
      return success('logged in', issueAccessToken(app, user, tokenTtlSeconds))
    }),
  )
}
