import { fastifyTrustProxy } from '@weft/api-shared/config/trust-proxy'
import { clientErrorHandler } from '@weft/api-shared/http/client-errors'
import { installCors } from '@weft/api-shared/http/cors'
import { installHandlerTimeout } from '@weft/api-shared/http/handler-timeout'
import { closeSilentConnections } from '@weft/api-shared/http/idle-connections'
import { installJsonBodies } from '@weft/api-shared/http/json-body'
import { withRedaction } from '@weft/api-shared/http/logging'
import { weftBinding } from '@weft/binding'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { memoryAttemptCounter } from './auth/attempts.js'
import { auth } from './auth/authenticate.js'
import type { Settings } from './config/settings.js'
import type { DatabaseHandle } from './db/client.js'
import { installDocs } from './http/docs.js'
import { frameworkErrors, installErrorHandling } from './http/error-handler.js'
import { ApiError, messages } from './http/errors.js'
import { redactedPaths } from './http/logging.js'
import { installNotFound } from './http/not-found.js'
import { installSecurity } from './http/security.js'
import { sharedRateLimitStore } from './limits/rate-limit-store.js'
import { connectRedis, outageLog } from './limits/redis.js'
import { redisAttemptCounter } from './limits/redis-attempts.js'
import { authRoutes } from './routes/auth.js'
import { healthRoutes } from './routes/health.js'
import { productRoutes } from './routes/products.js'
import { userRoutes } from './routes/users.js'
import { sharedSchemas } from './schemas/components.js'

export interface AppOptions {
  database: DatabaseHandle
  settings: Settings
  /** Fastify's logger option (off unless given); secrets are redacted whatever it says. */
  logger?: FastifyServerOptions['logger']
}

/** How long a request's bytes may take to arrive (`REQUEST_TIMEOUT_MS`). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000
/** How long a new connection may stay silent before it is closed (`IDLE_CONNECTION_TIMEOUT_MS`). */
export const DEFAULT_IDLE_CONNECTION_TIMEOUT_MS = 10_000

/**
 * With `REDIS_URL`, the rate limits and password-attempt budgets every replica shares; each falls back to
 * this process's memory while Redis is unreachable (logged once per outage, never a 500).
 */
function sharedLimits(app: FastifyInstance, settings: Settings) {
  if (!settings.redisUrl) return undefined
  const redis = connectRedis(settings.redisUrl, app.log)
  app.addHook('onClose', async () => {
    redis.disconnect()
  })
  const outage = outageLog(app.log)
  return {
    rateLimitStore: sharedRateLimitStore(redis, outage, 'weft:api-a:rate:'),
    attemptCounter: redisAttemptCounter(redis, outage, {
      prefix: 'weft:api-a:attempts:',
      max: settings.authRateLimit,
      windowMs: settings.authRateWindowMs,
      fallback: memoryAttemptCounter(settings.authRateLimit, settings.authRateWindowMs),
    }),
  }
}

/**
 * How the router matches paths; the not-found handler matches them the same way to tell 404 from 405. As in
 * API B: `/api/products/` is `/api/products`, and a path parameter over 100 characters is a 400.
 */
const routerOptions = { ignoreTrailingSlash: true, maxParamLength: 100 }

/** Builds the API without listening, so tests can `inject` into it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { database, settings } = options
  const requestTimeout = settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  const app = Fastify({
    logger: withRedaction(options.logger, redactedPaths),
    bodyLimit: settings.bodyLimit,
    // A client that trickles its request in gets 408 and its socket closed (Node's default is five minutes).
    requestTimeout,
    // Node looks for requests over `requestTimeout` this often (its default, 30 s, would double the bound), and
    // only enforces `requestTimeout` when `headersTimeout` (default 60 s) is not longer.
    http: { connectionsCheckingInterval: 1000, headersTimeout: Math.min(requestTimeout, 60_000) },
    trustProxy: fastifyTrustProxy(settings.trustProxy) as FastifyServerOptions['trustProxy'],
    routerOptions,
    frameworkErrors,
    // Errors of Node's HTTP parser (malformed requests, oversized headers, the request timeout) get the envelope too.
    clientErrorHandler: clientErrorHandler(requestTimeout),
  })
  closeSilentConnections(app.server, settings.idleConnectionTimeoutMs ?? DEFAULT_IDLE_CONNECTION_TIMEOUT_MS)
  // Each route's schema is validated and bound by @weft/binding in Fastify's validation phase (every failure is
  // one of its errors, never FST_ERR_VALIDATION), and documents the route. Unknown body fields are errors (400),
  // not silently dropped: PATCH accepts only what it lists.
  await app.register(weftBinding, {
    multipart: false,
    parserDecoder: { ignoreUnknownKeys: false },
    routeSchemas: 'all',
    // no control characters in any body string (tabs and line breaks in a description), emails and usernames
    // in NFC and without invisible characters: checked for every route, before its validation
    bodyText: { multiLineFields: ['description'], identifierFields: ['email', 'username'] },
  })
  // JSON only: text and multipart bodies are answered 415 by Fastify, forms and XML by `installJsonBodies`.
  // JSON is read by @weft/binding's parser: an empty body is no body, bytes that are not UTF-8
  // are a 400, and a coded (gzipped) body a 415 that asks for it uncompressed. Unlike API B, no `weftContext`:
  // the routes' `handle()` chains need none, and its hook costs the product list about 4 % (bench (c)).
  // (With it, coded bodies would be decoded, as API B does.)
  app.removeContentTypeParser('text/plain')
  for (const schema of sharedSchemas) app.addSchema(schema)
  installErrorHandling(app)
  installNotFound(app)
  installHandlerTimeout(app, settings.handlerTimeoutMs)
  installJsonBodies(app, () => new ApiError('UNSUPPORTED_MEDIA_TYPE', messages.notJsonMediaType))
  app.decorate('draining', false)
  const shared = sharedLimits(app, settings)
  await installSecurity(app, shared?.rateLimitStore)
  // After the security headers (preflight answers carry them too), before the routes.
  await installCors(app, settings.corsOrigins)
  await installDocs(app)
  await app.register(auth, { db: database.db, ...settings, attemptCounter: shared?.attemptCounter })
  await app.register(healthRoutes, { database })
  await app.register(authRoutes, {
    db: database.db,
    rateLimit: { max: settings.authRateLimit, timeWindow: settings.authRateWindowMs },
  })
  await app.register(userRoutes, {
    db: database.db,
    rateLimit: { max: settings.authRateLimit, timeWindow: settings.authRateWindowMs },
  })
  await app.register(productRoutes, {
    db: database.db,
    cursorSecrets: [settings.secret, ...(settings.previousSecret ? [settings.previousSecret] : [])],
  })
  return app
}
