import { accountChangeLimit } from '@weft/api-shared/auth/account-changes'
import { noStore } from '@weft/api-shared/http/cache'
import { success } from '@weft/api-shared/http/envelope'
import { publicUser } from '@weft/api-shared/routes/views'
import { SuccessEnvelopeSchema } from '@weft/api-shared/schemas/envelope'
import { MAX_PASSWORD_BYTES } from '@weft/api-shared/schemas/rules'
import { routeRequest } from '@weft/binding'
import { type Ctx, ctx, handle } from '@weft/context'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { attemptKeys, type PasswordAttempts } from '../auth/attempts.js'
import { authenticateAccount, callerOf } from '../auth/authenticate.js'
import type { PasswordHasher } from '../auth/password.js'
import type { UserRow } from '../db/schema.js'
import type { UserChanges, UsersRepository } from '../db/users.js'
import { ApiErrors, messages, rateLimited, validationFailed } from '../http/errors.js'
import { bodyErrors, idErrors, responses, serverErrors, tokenErrors } from '../schemas/responses.js'
import { DeleteUserBody, RegisterBody, UpdateUserBody, UserIdParams } from '../schemas/users.js'

export interface UserRoutesOptions {
  repository: UsersRepository
  hasher: PasswordHasher
  /** The password-check budget per IP and per account, shared with login. */
  attempts: PasswordAttempts
  /** Registrations one IP may make per window; account changes (PATCH) per IP and per account. */
  rateLimit: { max: number; timeWindow: number }
}

function checkPasswordBytes(password: string | undefined): void {
  if (password !== undefined && Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw validationFailed('password', 'maxBytes', `must be at most ${MAX_PASSWORD_BYTES} bytes in UTF-8`)
  }
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/**
 * Checks `current_password` for an action a stolen access token alone must not take (changing the login
 * name or the password, deleting the account); the check spends one attempt of the login budget of the
 * caller's address and of the account.
 */
async function proveCurrentPassword(
  c: Ctx,
  services: { hasher: PasswordHasher; attempts: PasswordAttempts },
  account: UserRow,
  given: string | undefined,
  action: string,
): Promise<void> {
  if (given === undefined)
    throw validationFailed('current_password', 'matches', `must be your current password to ${action}`)
  services.attempts.consume(attemptKeys(c.request().ip, String(account.id)))
  if (!(await services.hasher.verify(given, account.passwordHash))) {
    throw validationFailed('current_password', 'matches', `must be your current password to ${action}`)
  }
}

/**
 * The `preValidation` hook of `/api/user/:id`: the id must be the caller's own account (400 INVALID_ID, 403 for
 * any other id, existing or not), whatever the body holds, so it runs before the route schema's validation.
 */
async function ownAccount(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const c = ctx(request, reply)
  const { id } = await c.bind().uri(UserIdParams)
  if (callerOf(c).id !== id) throw new ApiErrors.Forbidden()
}

/** The bound bodies of the routes' schemas, for `routeRequest()` in the handlers. */
const registration = { body: RegisterBody }
const update = { body: UpdateUserBody }
const deletion = { body: DeleteUserBody }

const userEnvelope = SuccessEnvelopeSchema(Type.Ref('User'))
const protectedRoute = { security: [{ bearerAuth: [] }], tags: ['users'], params: UserIdParams }
/** What every `/api/user/{id}` operation may answer besides its own. */
const accountErrors = [...tokenErrors, ...idErrors, 'FORBIDDEN', ...serverErrors] as const
/** The statuses of PATCH that come after the change is counted, and so carry the rate-limit headers. */
const countedStatuses = [200, 409, 429]

/** `POST /api/user` and `GET|PATCH|DELETE /api/user/:id`. */
export const userRoutes: FastifyPluginAsync<UserRoutesOptions> = async (app, options) => {
  const { repository, hasher, rateLimit } = options
  const accountChanges = accountChangeLimit(app, rateLimit, (s) => rateLimited(messages.tooManyRequests(s), s))
  // Runs before the body is read: without a valid token the answer is 401 whatever the body is.
  const authenticated = authenticateAccount(app, repository)

  // Tokens and account data must not be stored by any cache (RFC 6749 §5.1, RFC 9111): every answer here.
  app.addHook('onRequest', noStore)

  app.post(
    '/api/user',
    {
      config: { rateLimit },
      schema: {
        operationId: 'registerUser',
        summary: 'Register an account',
        tags: ['users'],
        security: [],
        body: RegisterBody,
        response: responses(
          {
            201: {
              description: 'the account is registered; `Location` is its path',
              body: userEnvelope,
              headers: ['location'],
            },
          },
          [...bodyErrors, 'CONFLICT', 'RATE_LIMITED', ...serverErrors],
          { rateLimited: true },
        ),
      },
    },
    handle(async (c) => {
      const { body } = routeRequest(registration, c)
      checkPasswordBytes(body.password)
      const row = await repository.insert({
        username: body.username,
        email: normaliseEmail(body.email),
        passwordHash: await hasher.hash(body.password),
      })
      c.status(201).location(`/api/user/${row.id}`)
      return success('user registered', publicUser(row))
    }),
  )

  app.get(
    '/api/user/:id',
    {
      onRequest: authenticated,
      preValidation: ownAccount,
      schema: {
        operationId: 'getUser',
        summary: 'Read your account',
        ...protectedRoute,
        response: responses({ 200: { description: 'your account', body: userEnvelope } }, accountErrors),
      },
    },
    handle((c) => success('user found', publicUser(callerOf(c)))),
  )

  app.patch(
    '/api/user/:id',
    {
      onRequest: authenticated,
      preValidation: ownAccount,
      schema: {
        operationId: 'updateUser',
        summary: 'Update your account (username, email, password)',
        description:
          'Changing the username (the login name) or the password needs `current_password`; a password change ' +
          'invalidates every token issued before, including the one used. Rate limited like registration: every ' +
          'change counts against your address and your account (`LOGIN_RATE_LIMIT_MAX` per ' +
          '`LOGIN_RATE_LIMIT_WINDOW_MS` each, a 409 for a taken username or email included), so the answers ' +
          'cannot be used to list the accounts. The answers that come after the count (200, 409, 429) carry ' +
          '`x-ratelimit-*`; over budget, 429 `RATE_LIMITED` with `Retry-After`.',
        ...protectedRoute,
        body: UpdateUserBody,
        response: responses(
          { 200: { description: 'the account as updated', body: userEnvelope } },
          [...accountErrors, ...bodyErrors, 'CONFLICT', 'RATE_LIMITED'],
          { rateLimited: countedStatuses },
        ),
      },
    },
    handle(async (c) => {
      const account = callerOf(c)
      const { body } = routeRequest(update, c)
      const changes: UserChanges = {}
      if (body.username !== undefined) changes.username = body.username
      if (body.email !== undefined) changes.email = normaliseEmail(body.email)
      checkPasswordBytes(body.password)
      if (Object.keys(changes).length === 0 && body.password === undefined) {
        throw validationFailed('', 'minProperties', 'must name at least one of username, email, password')
      }
      // Counted before the password check and the unique indexes: a 409 costs as much as a 200.
      await accountChanges.consume(c.request(), c.response(), account.id)
      if (body.username !== undefined || body.password !== undefined) {
        const action = body.password === undefined ? 'change the username' : 'change it'
        await proveCurrentPassword(c, options, account, body.current_password, action)
      }
      if (body.password !== undefined) changes.passwordHash = await hasher.hash(body.password)
      const row = await repository.update(account.id, changes)
      if (!row) throw new ApiErrors.NotFound(`user ${account.id} not found`)
      return success(changes.passwordHash ? 'user updated; log in again' : 'user updated', publicUser(row))
    }),
  )

  app.delete(
    '/api/user/:id',
    {
      onRequest: authenticated,
      preValidation: ownAccount,
      schema: {
        operationId: 'deleteUser',
        summary: 'Delete your account',
        description: 'Needs `current_password`. Every token of the account stops working.',
        ...protectedRoute,
        body: DeleteUserBody,
        response: responses(
          { 200: { description: 'the account is deleted; `data` is null', body: SuccessEnvelopeSchema(Type.Null()) } },
          [...accountErrors, ...bodyErrors, 'RATE_LIMITED'],
        ),
      },
    },
    handle(async (c) => {
      const account = callerOf(c)
      const { current_password } = routeRequest(deletion, c).body
      await proveCurrentPassword(c, options, account, current_password, 'delete the account')
      if (!(await repository.delete(account.id))) throw new ApiErrors.NotFound(`user ${account.id} not found`)
      return success('user deleted', null)
    }),
  )
}
