import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import rateLimit from '@fastify/rate-limit'

import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'
import { messages, rateLimited } from './errors.js'

/**
 * helmet's defaults without the CSP directive `upgrade-insecure-requests`: a browser that reaches the
 * server over plain HTTP at any address but localhost would fetch every asset of the docs page over
 * HTTPS, which this server does not speak, and render a blank page. Moving clients to HTTPS is the TLS
 * terminator's job (it owns the certificate); HSTS stays, as browsers only honour it over HTTPS.
 */
export const helmetOptions = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
} as const

/**
 * The headers of {@link helmetOptions}, computed once: helmet's middleware is run against a stub
 * response that records them. Written by hand (instead of registering @fastify/helmet) for speed:
 * @fastify/helmet rebuilds helmet's middleware and re-parses the CSP directives on every request,
 * while the set has no per-request part (no nonces), so one frozen object serves them all.
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  let failure: unknown
  helmet(helmetOptions)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error
  })
  if (failure) throw failure
  return Object.freeze(headers)
}

/**
 * Security headers on every response ({@link helmetOptions}, set by one synchronous hook; Swagger UI
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
