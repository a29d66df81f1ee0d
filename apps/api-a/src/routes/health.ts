import { sql } from 'drizzle-orm'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import type { DatabaseHandle } from '../db/client.js'
import { success } from '../http/envelope.js'
import { unavailable } from '../http/errors.js'
import { responses, SuccessEnvelopeSchema } from '../schemas/common.js'

/** `GET /api/health`: 200 when the database answers, 503 (with Retry-After) when it does not. */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: responses({ 200: SuccessEnvelopeSchema(Type.Object({ database: Type.Literal('up') })) }),
      },
    },
    async () => {
      try {
        await database.db.execute(sql`select 1`)
      } catch {
        throw unavailable()
      }
      return success('ok', { database: 'up' as const })
    },
  )
}
