import { type Ctx, handle } from '@weft/context'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import { callerOf, requireAccount } from '../auth/authenticate.js'
import type { PasswordHasher } from '../auth/password.js'
import type { UserRow } from '../db/schema.js'
import { ErrorEnvelopeSchema, SuccessEnvelopeSchema, success } from '../http/envelope.js'
import { ApiErrors, validationFailed } from '../http/errors.js'
import { presentUser } from '../users/present.js'
import type { UserChanges, UsersRepository } from '../users/repository.js'
import { PublicUser, RegisterBody, UpdateUserBody, UserIdParams } from '../users/schemas.js'

export interface UserRoutesOptions {
  repository: UsersRepository
  hasher: PasswordHasher
  /** Registrations one IP may make per window. */
  rateLimit: { max: number; timeWindow: number }
}

const MAX_PASSWORD_BYTES = 72

function checkPasswordBytes(password: string | undefined): void {
  if (password !== undefined && Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw validationFailed('password', 'maxBytes', `must not be longer than ${MAX_PASSWORD_BYTES} bytes`)
  }
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** The `:id` of the path, when it is the caller's own account; 403 for any other id (existing or not). */
async function ownAccount(c: Ctx): Promise<UserRow> {
  const { id } = await c.bind().uri(UserIdParams)
  const caller = callerOf(c)
  if (caller.id !== id) throw new ApiErrors.Forbidden()
  return caller
}

const userEnvelope = SuccessEnvelopeSchema(PublicUser)
const errors = { '4xx': ErrorEnvelopeSchema, '5xx': ErrorEnvelopeSchema }
const protectedRoute = { security: [{ bearerAuth: [] }], tags: ['users'], params: UserIdParams }

/** `POST /api/user` and `GET|PATCH|DELETE /api/user/:id`. */
export const userRoutes: FastifyPluginAsync<UserRoutesOptions> = async (app, { repository, hasher, rateLimit }) => {
  const authenticated = requireAccount(app, repository)

  app.post(
    '/api/user',
    {
      config: { rateLimit },
      schema: {
        summary: 'Register an account',
        tags: ['users'],
        body: RegisterBody,
        response: { 201: userEnvelope, ...errors },
      },
    },
    handle(async (c) => {
      const body = await c.bind().json(RegisterBody)
      checkPasswordBytes(body.password)
      const row = await repository.insert({
        username: body.username,
        email: normaliseEmail(body.email),
        passwordHash: await hasher.hash(body.password),
      })
      c.status(201).location(`/api/user/${row.id}`)
      return success('user registered', presentUser(row))
    }),
  )

  app.get(
    '/api/user/:id',
    {
      schema: { summary: 'Read your account', ...protectedRoute, response: { 200: userEnvelope, ...errors } },
    },
    handle(authenticated, async (c) => success('user found', presentUser(await ownAccount(c)))),
  )

  app.patch(
    '/api/user/:id',
    {
      schema: {
        summary: 'Update your account (username, email, password)',
        description:
          'Changing the password needs `current_password` and invalidates every token issued before, including the one used.',
        ...protectedRoute,
        body: UpdateUserBody,
        response: { 200: userEnvelope, ...errors },
      },
    },
    handle(authenticated, async (c) => {
      const account = await ownAccount(c)
      const body = await c.bind().json(UpdateUserBody)
      const changes: UserChanges = {}
      if (body.username !== undefined) changes.username = body.username
      if (body.email !== undefined) changes.email = normaliseEmail(body.email)
      if (body.password !== undefined) {
        checkPasswordBytes(body.password)
        const proven =
          body.current_password !== undefined && (await hasher.verify(body.current_password, account.passwordHash))
        if (!proven) {
          throw validationFailed('current_password', 'matches', 'must be your current password to change it')
        }
        changes.passwordHash = await hasher.hash(body.password)
      }
      if (Object.keys(changes).length === 0) {
        throw validationFailed('', 'minProperties', 'name at least one of username, email, password')
      }
      const row = await repository.update(account.id, changes)
      if (!row) throw new ApiErrors.NotFound('user not found')
      return success(changes.passwordHash ? 'user updated; log in again' : 'user updated', presentUser(row))
    }),
  )

  app.delete(
    '/api/user/:id',
    {
      schema: {
        summary: 'Delete your account',
        description: 'Every token of the account stops working.',
        ...protectedRoute,
        response: { 200: SuccessEnvelopeSchema(Type.Null()), ...errors },
      },
    },
    handle(authenticated, async (c) => {
      const account = await ownAccount(c)
      if (!(await repository.delete(account.id))) throw new ApiErrors.NotFound('user not found')
      return success('user deleted', null)
    }),
  )
}
