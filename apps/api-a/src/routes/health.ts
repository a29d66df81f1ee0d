import { success } from '@weft/api-shared/http/envelope'
import { SuccessEnvelopeSchema } from '@weft/api-shared/schemas/envelope'
import { sql } from 'drizzle-orm'
import type { FastifyPluginAsync } from 'fastify'
import { Type } from 'typebox'
import type { DatabaseHandle } from '../db/client.js'
import { unavailable } from '../http/errors.js'
import { responses, serverErrors } from '../schemas/responses.js'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Set when the process is asked to stop: health answers 503 from then on, so a load balancer takes
     * this replica out while it still serves what it receives (see server.ts).
     */
    draining: boolean
  }
}

/**
 * `GET /api/health`: 200 when the database answers, 503 (with Retry-After) when it does not or when the
 * process is draining before it stops.
 */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'Liveness and database reachability',
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
      if (app.draining) {
        throw unavailable(1, 'the server is shutting down; retry in 1 s')
      }
      try {
        await database.db.execute(sql`select 1`)
      } catch {
        throw unavailable()
      }
      return success('ok', { database: 'up' as const })
    },
  )
}
