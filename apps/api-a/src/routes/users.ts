import { eq, sql } from 'drizzle-orm'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { assertPasswordBytes, normalizeEmail } from '../auth/normalize.js'
import { requirePrincipal } from '../auth/plugin.js'
import type { Database } from '../db/client.js'
import { users } from '../db/schema.js'
import { success } from '../http/envelope.js'
import { forbidden, notFound, validationFailed } from '../http/errors.js'
import { readBody, readId } from '../http/input.js'
import { IdParams, responses, SuccessEnvelopeSchema } from '../schemas/common.js'
import { PublicUser, UpdateUserBody } from '../schemas/users.js'
import { publicUser } from './views.js'

const secured = [{ bearerAuth: [] }]

/** The `:id` of a request for an account, which must be the caller's own. */
async function ownId(request: FastifyRequest): Promise<number> {
  const id = await readId(request)
  if (id !== requirePrincipal(request).userId) throw forbidden('you may only access your own account')
  return id
}

/** `/api/users/:id`: read, update and delete one's own account. */
export const userRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
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
      schema: {
        tags: ['users'],
        summary: 'Read your account',
        security: secured,
        params: IdParams,
        response: responses({ 200: SuccessEnvelopeSchema(PublicUser) }),
      },
    },
    async (request) => success('user found', publicUser(await loadUser(await ownId(request)))),
  )

  app.patch(
    '/api/users/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Update your username, email or password (password changes sign out every session)',
        security: secured,
        params: IdParams,
        body: UpdateUserBody,
        response: responses({ 200: SuccessEnvelopeSchema(PublicUser) }),
      },
    },
    async (request) => {
      const id = await ownId(request)
      const body = await readBody(request, UpdateUserBody)
      const current = await loadUser(id)
      const changes: Partial<typeof users.$inferInsert> = {}
      if (body.username !== undefined) changes.username = body.username
      if (body.email !== undefined) changes.email = normalizeEmail(body.email)
      if (body.password !== undefined) {
        assertPasswordBytes(body.password)
        const proven =
          body.current_password !== undefined &&
          (await app.passwords.verify(body.current_password, current.passwordHash))
        if (!proven) {
          throw validationFailed([
            { field: 'current_password', rule: 'matches', message: 'must be your current password to change it' },
          ])
        }
        changes.passwordHash = await app.passwords.hash(body.password)
      }
      if (Object.keys(changes).length === 0) {
        throw validationFailed([
          { field: '', rule: 'minProperties', message: 'name at least one of username, email, password' },
        ])
      }
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(users)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(users.id, id))
          .returning()
        if (changes.passwordHash) await app.sessions.revokeAll(tx, id)
        return updated
      })
      if (!row) throw notFound(`user ${id} not found`)
      return success(changes.passwordHash ? 'user updated; log in again' : 'user updated', publicUser(row))
    },
  )

  app.delete(
    '/api/users/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Delete your account (and its products and sessions)',
        security: secured,
        params: IdParams,
        response: responses({ 200: SuccessEnvelopeSchema(Type.Null()) }),
      },
    },
    async (request) => {
      const id = await ownId(request)
      const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id })
      if (deleted.length === 0) throw notFound(`user ${id} not found`)
      return success('user deleted', null)
    },
  )
}
