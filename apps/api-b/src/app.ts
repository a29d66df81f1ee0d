import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import { fastifyTrustProxy } from '@weft/api-shared/config/trust-proxy'
import { clientErrorHandler } from '@weft/api-shared/http/client-errors'
import { installCors } from '@weft/api-shared/http/cors'
import { installHandlerTimeout } from '@weft/api-shared/http/handler-timeout'
import { closeSilentConnections } from '@weft/api-shared/http/idle-connections'
import { installJsonBodies } from '@weft/api-shared/http/json-body'
import { withRedaction } from '@weft/api-shared/http/logging'
import { helmetOptions } from '@weft/api-shared/http/security-headers'
import { weftBinding } from '@weft/binding'
import { weftContext } from '@weft/context'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { createPasswordAttempts } from './auth/attempts.js'
import { createPasswordHasher, SCRYPT_CONCURRENCY } from './auth/password.js'
import { registerTokens } from './auth/tokens.js'
import { createWorkLimit } from './auth/work-limit.js'
import { checkSettings, type Settings } from './config/settings.js'
import type { DatabaseHandle } from './db/client.js'
import { usersRepository } from './db/users.js'
import { installDocs } from './http/docs.js'
import { frameworkErrors, installErrorHandling } from './http/error-handler.js'
import { ApiErrors, messages, rateLimited } from './http/errors.js'
import { redactedPaths } from './http/logging.js'
import { installNotFound } from './http/not-found.js'
import { authRoutes } from './routes/auth.js'
import { healthRoutes } from './routes/health.js'
import { userRoutes } from './routes/users.js'
import { sharedSchemas } from './schemas/components.js'

export interface AppOptions {
  database: DatabaseHandle
  /** Checked again here: a short `SECRET` refuses to build the app whatever the entry point. */
  settings: Settings
  /** Fastify's logger option; off unless given. Redaction of secrets is always added. */
  logger?: FastifyServerOptions['logger']
}

/** How the router matches paths; the not-found handler matches them the same way to tell 404 from 405. */
const routerOptions = { ignoreTrailingSlash: true, maxParamLength: 100 }

/** Builds the API without listening, so tests can `inject` into it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const settings = checkSettings(options.settings)
  const app = Fastify({
    logger: withRedaction(options.logger, redactedPaths),
    bodyLimit: settings.bodyLimit,
    // A handler still running after this long (a database that neither answers nor fails) gets 503.
    // A client that trickles its request in gets 408 and its socket closed (Node's default is five minutes).
    requestTimeout: settings.requestTimeoutMs,
    // Node looks for requests over `requestTimeout` this often (its default, 30 s, would double the bound), and
    // only enforces `requestTimeout` when `headersTimeout` (default 60 s) is not longer.
    http: { connectionsCheckingInterval: 1000, headersTimeout: Math.min(settings.requestTimeoutMs, 60_000) },
    trustProxy: fastifyTrustProxy(settings.trustProxy) as FastifyServerOptions['trustProxy'],
    routerOptions,
    // Errors raised before routing (a malformed URL) get the envelope too.
    frameworkErrors,
    // And so do errors of Node's HTTP parser (malformed requests, oversized headers, the request timeout).
    clientErrorHandler: clientErrorHandler(settings.requestTimeoutMs),
  })
  // A connection that sends nothing is closed sooner than a request that is still arriving.
  closeSilentConnections(app.server, settings.idleConnectionTimeoutMs)

  // Before any route: it records their methods.
  installNotFound(app)

  // Each route's schema (body, path params) is validated and bound by @weft/binding in Fastify's validation
  // phase (every failure is one of its errors, never FST_ERR_VALIDATION), and documents the route. Unknown body
  // fields are errors (400), not silently dropped: PATCH accepts only what it lists.
  await app.register(weftBinding, {
    multipart: false,
    parserDecoder: { ignoreUnknownKeys: false },
    routeSchemas: 'all',
    // no control characters in any body string, emails and usernames in NFC and without invisible characters;
    // one problem per answer: API B names the first field at fault
    bodyText: { identifierFields: ['email', 'username'], maxProblems: 1 },
  })
  await app.register(weftContext)
  // JSON only: text and multipart bodies are answered 415 by Fastify, forms and XML by `installJsonBodies`.
  // JSON is read by @weft/binding's parser: an empty body is no body, bytes that are not UTF-8 are a 400, a
  // gzipped body is decoded first.
  app.removeContentTypeParser('text/plain')

  await app.register(helmet, helmetOptions)
  // After the security headers (preflight answers carry them too), before the routes.
  await installCors(app, settings.corsOrigins)
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000))
      return rateLimited(messages.tooManyRequests(seconds), seconds)
    },
  })
  await registerTokens(app, settings.secret, settings.tokenTtlSeconds)
  for (const schema of sharedSchemas) app.addSchema(schema)
  await installDocs(app)
  installErrorHandling(app)
  installHandlerTimeout(app, settings.handlerTimeoutMs)
  installJsonBodies(app, () => new ApiErrors.UnsupportedMediaType())

  const repository = usersRepository(options.database.db)
  const hasher = createPasswordHasher(
    settings.scryptCost,
    undefined,
    createWorkLimit(SCRYPT_CONCURRENCY, settings.passwordQueueMax),
  )
  const limit = { max: settings.loginRateLimitMax, timeWindow: settings.loginRateLimitWindowMs }
  // One budget of password checks per IP and per account, shared by login, PATCH and DELETE.
  const attempts = createPasswordAttempts(settings.loginRateLimitMax, settings.loginRateLimitWindowMs)
  await app.register(healthRoutes, { database: options.database })
  await app.register(userRoutes, { repository, hasher, attempts, rateLimit: limit })
  await app.register(authRoutes, {
    repository,
    hasher,
    attempts,
    tokenTtlSeconds: settings.tokenTtlSeconds,
    rateLimit: limit,
  })
  return app
}
