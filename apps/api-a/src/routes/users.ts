import { accountChangeLimit } from '@weft/api-shared/auth/account-changes'
import { noStore } from '@weft/api-shared/http/cache'
import { success } from '@weft/api-shared/http/envelope'
import { SuccessEnvelopeSchema } from '@weft/api-shared/schemas/envelope'
import { bind, type WeftTypeProvider } from '@weft/binding'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest, RawServerDefault } from 'fastify'
import { Type } from 'typebox'
import { attemptKeys } from '../auth/attempts.js'
import { requirePrincipal } from '../auth/authenticate.js'
import { assertPasswordBytes, normalizeEmail } from '../auth/normalize.js'
import type { Database } from '../db/client.js'
import { users } from '../db/schema.js'
import { forbidden, messages, notFound, rateLimited, validationFailed } from '../http/errors.js'
import { IdParams } from '../schemas/common.js'
import { bodyErrors, idErrors, responses, serverErrors, tokenErrors } from '../schemas/responses.js'
import { DeleteUserBody, UpdateUserBody } from '../schemas/users.js'
import { publicUser } from './views.js'

const secured = [{ bearerAuth: [] }]
const UserEnvelope = SuccessEnvelopeSchema(Type.Ref('User'))
/** What every `/api/users/{id}` operation may answer besides its own. */
const accountErrors = [...tokenErrors, ...idErrors, 'FORBIDDEN', ...serverErrors] as const

/**
 * The `preValidation` hook of `/api/users/:id`: the id must be the caller's own account (400 INVALID_ID, 403
 * FORBIDDEN), whatever the body holds, so it runs before the route schema's validation.
 */
async function ownAccount(request: FastifyRequest): Promise<void> {
  const { id } = await bind(request).uri(IdParams)
  if (id !== requirePrincipal(request).userId) throw forbidden(messages.ownAccountOnly)
}

/**
 * Checks `current_password` for an action a stolen access token alone must not take (changing the login email
 * or the password, deleting the account). The check spends one attempt of the login budget of the caller's
 * address and of the account.
 */
async function proveCurrentPassword(
  app: FastifyInstance,
  request: FastifyRequest,
  user: { id: number; passwordHash: string },
  given: string | undefined,
  action: string,
): Promise<void> {
  if (given === undefined) {
    throw validationFailed([
      { field: 'current_password', rule: 'matches', message: `must be your current password to ${action}` },
    ])
  }
  await app.passwordAttempts.consume(attemptKeys(request.ip, String(user.id)))
  if (!(await app.passwords.verify(given, user.passwordHash))) {
    throw validationFailed([
      { field: 'current_password', rule: 'matches', message: `must be your current password to ${action}` },
    ])
  }
}

export interface UserRoutesOptions {
  db: Database
  /** Account changes (PATCH) per address and per account per window. */
  rateLimit: { max: number; timeWindow: number }
}

/** The statuses of PATCH that come after the change is counted, and so carry the rate-limit headers. */
const countedStatuses = [200, 409, 429]

/** `/api/users/:id`: read, update and delete one's own account. */
export const userRoutes: FastifyPluginAsync<UserRoutesOptions, RawServerDefault, WeftTypeProvider> = async (
  app,
  { db, rateLimit },
) => {
  const changes = accountChangeLimit(app, rateLimit, (s) => rateLimited(messages.tooManyRequests(s), s))
  // Tokens and account data must not be stored by any cache (RFC 6749 §5.1, RFC 9111): every answer here.
  app.addHook('onRequest', noStore)
  // Prepared once: the read route runs it on every request.
  const userById = db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('user_by_id')
  const loadUser = async (id: number) => {
    // The driver-generic `Database` types a prepared select's rows loosely; they are the table's rows.
    const [row] = (await userById.execute({ id })) as (typeof users.$inferSelect)[]
    if (!row) throw notFound(`user ${id} not found`)
    return row
  }

  app.get(
    '/api/users/:id',
    {
      onRequest: app.authenticate,
      preValidation: ownAccount,
      schema: {
        operationId: 'getUser',
        tags: ['users'],
        summary: 'Read your account',
        security: secured,
        params: IdParams,
        response: responses({ 200: { description: 'your account', body: UserEnvelope } }, accountErrors),
      },
    },
    async (request) => success('user found', publicUser(await loadUser(request.params.id))),
  )

  app.patch(
    '/api/users/:id',
    {
      onRequest: app.authenticate,
      preValidation: ownAccount,
      schema: {
        operationId: 'updateUser',
        tags: ['users'],
        summary:
          'Update your username, email or password; email and password changes need current_password, password changes sign out every session',
        description:
          'Rate limited like registration: every change counts against your address and your account ' +
          '(`AUTH_RATE_LIMIT` per `AUTH_RATE_WINDOW_MS` each, a 409 for a taken username or email included), ' +
          'so the answers cannot be used to list the accounts. The answers that come after the count (200, 409, ' +
          '429) carry `x-ratelimit-*`; over budget, 429 `RATE_LIMITED` with `Retry-After`.',
        security: secured,
        params: IdParams,
        body: UpdateUserBody,
        response: responses(
          { 200: { description: 'the account as updated', body: UserEnvelope } },
          [...accountErrors, ...bodyErrors, 'CONFLICT', 'RATE_LIMITED'],
          { rateLimited: countedStatuses },
        ),
      },
    },
    async (request, reply) => {
      const { body } = request
      const { id } = request.params
      const current = await loadUser(id)
      const update: Partial<typeof users.$inferInsert> = {}
      if (body.username !== undefined) update.username = body.username
      if (body.email !== undefined) update.email = normalizeEmail(body.email)
      if (body.password !== undefined) assertPasswordBytes(body.password)
      if (Object.keys(update).length === 0 && body.password === undefined) {
        throw validationFailed([
          { field: '', rule: 'minProperties', message: 'must name at least one of username, email, password' },
        ])
      }
      // Counted before the password check and the unique indexes: a 409 costs as much as a 200.
      await changes.consume(request, reply, id)
      if (body.email !== undefined || body.password !== undefined) {
        const action = body.password === undefined ? 'change the email' : 'change it'
        await proveCurrentPassword(app, request, current, body.current_password, action)
      }
      if (body.password !== undefined) update.passwordHash = await app.passwords.hash(body.password)
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(users)
          .set({ ...update, updatedAt: new Date() })
          .where(eq(users.id, id))
          .returning()
        if (update.passwordHash) await app.sessions.revokeAll(tx, id)
        return updated
      })
      if (!row) throw notFound(`user ${id} not found`)
      return success(update.passwordHash ? 'user updated; log in again' : 'user updated', publicUser(row))
    },
  )

  app.delete(
    '/api/users/:id',
    {
      onRequest: app.authenticate,
      preValidation: ownAccount,
      schema: {
        operationId: 'deleteUser',
        tags: ['users'],
        summary: 'Delete your account (and its products and sessions); needs current_password',
        security: secured,
        params: IdParams,
        body: DeleteUserBody,
        response: responses(
          { 200: { description: 'the account is deleted; `data` is null', body: SuccessEnvelopeSchema(Type.Null()) } },
          [...accountErrors, ...bodyErrors, 'RATE_LIMITED'],
        ),
      },
    },
    async (request) => {
      const { id } = request.params
      await proveCurrentPassword(app, request, await loadUser(id), request.body.current_password, 'delete the account')
      const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id })
      if (deleted.length === 0) throw notFound(`user ${id} not found`)
      return success('user deleted', null)
    },
  )
}
