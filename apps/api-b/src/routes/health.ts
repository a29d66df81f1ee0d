import { addHealthRoute } from '@weft/api-shared/routes/health'
import type { FastifyPluginAsync } from 'fastify'
import type { DatabaseHandle } from '../db/client.js'
import { unavailable } from '../http/errors.js'
import { responses } from '../schemas/responses.js'

/** `GET /api/health`: 200 when the database answers, 503 (with `Retry-After`) when it does not. */
export const healthRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (app, { database }) => {
  addHealthRoute(app, { database, responses, unavailable })
}
