import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'

/**
 * The response headers a browser page may read besides the safelisted ones: where a created resource lives,
 * when to retry, which scheme to authenticate with, and the rate-limit budget.
 */
export const exposedHeaders = [
  'Location',
  'Retry-After',
  'WWW-Authenticate',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
]

/**
 * CORS for the listed origins (`CORS_ORIGINS`; `['*']` for any), off when there are none. Preflights are
 * answered before authentication and rate limits, allow the `Authorization` and `Content-Type` headers, and
 * are cached by browsers for ten minutes. No credentials mode: the API authenticates with the
 * `Authorization` header, never a cookie.
 */
export async function installCors(app: FastifyInstance, origins: readonly string[] | undefined): Promise<void> {
  if (!origins || origins.length === 0) return
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    exposedHeaders,
    credentials: false,
    maxAge: 600,
    // An OPTIONS request that is not a preflight gets the same answer instead of a text/plain 400.
    strictPreflight: false,
  })
}
