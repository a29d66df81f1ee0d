import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import rateLimit from '@fastify/rate-limit'
import { securityHeaders } from '@weft/api-shared/http/security-headers'
import type { FastifyInstance } from 'fastify'
import { messages, rateLimited } from './errors.js'

/**
 * Security headers on every response (helmet's defaults minus the HTTPS upgrade, set by one hook; Swagger UI
 * replaces the Content-Security-Policy of its own pages) and the rate limiter, which only acts on
 * routes that ask for it in `config.rateLimit` (login and register).
 */
export async function installSecurity(app: FastifyInstance, sharedStore?: FastifyRateLimitStoreCtor): Promise<void> {
  const headers = securityHeaders()
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
  await app.register(rateLimit, {
    global: false,
    // With several replicas the counters live in Redis, so the budget is one for all of them.
    ...(sharedStore ? { store: sharedStore } : {}),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000))
      return rateLimited(messages.tooManyRequests(seconds), seconds)
    },
  })
}
