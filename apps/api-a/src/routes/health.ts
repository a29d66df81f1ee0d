import { addHealthRoute } from '@weft/api-shared/routes/health'
import type { FastifyPluginAsync } from 'fastify'
import type { DatabaseHandle } from '../db/client.js'
import { unavailable } from '../http/errors.js'
import { responses } from '../schemas/responses.js'

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
  addHealthRoute(app, { database, responses, unavailable, draining: () => app.draining })
}
