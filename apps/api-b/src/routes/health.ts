import { sql } from 'drizzle-orm'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import type { DatabaseHandle } from '../db/client.js'
import { ErrorEnvelopeSchema, SuccessEnvelopeSchema, success } from '../http/envelope.js'
import { ApiErrors } from '../http/errors.js'

/** `GET /api/health`: 200 when the database answers, 503 (with `Retry-After`) when it does not. */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Liveness and database reachability',
        tags: ['health'],
        response: {
          200: SuccessEnvelopeSchema(Type.Object({ database: Type.Literal('up') })),
          503: ErrorEnvelopeSchema,
        },
      },
    },
    async () => {
      try {
        await database.db.execute(sql`select 1`)
      } catch {
        throw new ApiErrors.Unavailable()
      }
      return success('ok', { database: 'up' as const })
    },
  )
}
