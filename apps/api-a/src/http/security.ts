import type { IncomingMessage, ServerResponse } from 'node:http'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'
import { ApiError } from './errors.js'

/**
 * The headers helmet's defaults send, computed once: helmet's middleware is run against a stub
 * response that records them. Written by hand (instead of registering @fastify/helmet) for speed:
 * @fastify/helmet rebuilds helmet's middleware and re-parses the CSP directives on every request,
 * while the default set has no per-request part (no nonces), so one frozen object serves them all.
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
  helmet()({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error
  })
  if (failure) throw failure
  return Object.freeze(headers)
}

/**
 * Security headers on every response (helmet's defaults, set by one synchronous hook; Swagger UI
 * replaces the Content-Security-Policy of its own pages) and the rate limiter, which only acts on
 * routes that ask for it in `config.rateLimit` (login and register).
 */
export async function installSecurity(app: FastifyInstance): Promise<void> {
  const headers = securityHeaders()
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000))
      return new ApiError(429, 'RATE_LIMITED', `too many requests; retry in ${seconds} s`, { retryAfter: seconds })
    },
  })
}
