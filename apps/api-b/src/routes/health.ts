import { success } from '@weft/api-shared/http/envelope'
import { SuccessEnvelopeSchema } from '@weft/api-shared/schemas/envelope'
import { sql } from 'drizzle-orm'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import type { DatabaseHandle } from '../db/client.js'
import { unavailable } from '../http/errors.js'
import { responses, serverErrors } from '../schemas/responses.js'

/** `GET /api/health`: 200 when the database answers, 503 (with `Retry-After`) when it does not. */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness and database reachability',
        tags: ['health'],
        security: [],
        response: responses(
          {
            200: {
              description: 'the server runs and its database answers',
              body: SuccessEnvelopeSchema(Type.Object({ database: Type.Literal('up') })),
            },
          },
          serverErrors,
        ),
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
