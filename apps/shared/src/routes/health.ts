import { type SQL, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { success } from '../http/envelope.js'
import { SuccessEnvelopeSchema } from '../schemas/envelope.js'
import { type Success, serverErrors } from '../schemas/responses.js'

/** What differs between the apps: their database, their error classes and catalogue, and draining (API A). */
export interface HealthOptions {
  /** Health asks it `select 1`. */
  database: { db: { execute(query: SQL): PromiseLike<unknown> } }
  /** The app's `responses` (`responsesOf` its catalogue), so the 5xx answers are documented in its words. */
  responses(success: Record<number, Success>, errors: typeof serverErrors): Record<string, unknown>
  /** The app's 503 UNAVAILABLE: its default words with no argument. */
  unavailable(retryAfter?: number, message?: string): Error
  /** True once the process is asked to stop, so a load balancer takes the replica out while it still serves. */
  draining?: () => boolean
}

/**
 * `GET /api/health`: 200 when the database answers, 503 (with `Retry-After`) when it does not or when the
 * process is draining before it stops.
 */
export function addHealthRoute(app: FastifyInstance, options: HealthOptions): void {
  const { database, unavailable, draining } = options
  app.get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'Liveness and database reachability',
        security: [],
        response: options.responses(
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
      if (draining?.()) throw unavailable(1, 'the server is shutting down; retry in 1 s')
      try {
        await database.db.execute(sql`select 1`)
      } catch {
        throw unavailable()
      }
      return success('ok', { database: 'up' as const })
    },
  )
}
