import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import { weftBinding } from '@weft/binding'
import { weftContext } from '@weft/context'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify'
import { createPasswordHasher } from './auth/password.js'
import { registerTokens } from './auth/tokens.js'
import type { DatabaseHandle } from './db/client.js'
import { failure } from './http/envelope.js'
import { installErrorHandling } from './http/error-handler.js'
import { ApiErrors } from './http/errors.js'
import { loggerOptions } from './http/logging.js'
import { registerOpenApi } from './http/openapi.js'
import { authRoutes } from './routes/auth.js'
import { healthRoutes } from './routes/health.js'
import { userRoutes } from './routes/users.js'
import { checkSettings, type Settings } from './settings.js'
import { usersRepository } from './users/repository.js'

export interface AppOptions {
  database: DatabaseHandle
  /** Checked again here: a short `SECRET` refuses to build the app whatever the entry point. */
  settings: Settings
  /** Fastify's logger option; off unless given. Redaction of secrets is always added. */
  logger?: FastifyServerOptions['logger']
}

/** Builds the API without listening, so tests can `inject` into it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const settings = checkSettings(options.settings)
  const app = Fastify({
    logger: loggerOptions(options.logger),
    bodyLimit: settings.bodyLimit,
    // A handler still running after this long (a database that neither answers nor fails) gets 503.
    handlerTimeout: settings.handlerTimeoutMs,
    requestTimeout: 30_000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 100 },
    // Errors raised before routing (a malformed URL) get the envelope too.
    frameworkErrors: (_error, _request, reply) =>
      (reply as FastifyReply).code(400).send(failure('BAD_REQUEST', 'malformed or overlong URL')),
  })

  // Request bodies and path params are parsed and validated once, in the handlers, by @weft/binding
  // (`c.bind().json(Schema)`, `c.bind().uri(Schema)`); the route schemas only describe them for the
  // OpenAPI document and serialize responses, so Fastify's own validation is switched off.
  app.setValidatorCompiler(() => () => true)
  // Unknown body fields are errors (400), not silently dropped: PATCH accepts only what it lists.
  await app.register(weftBinding, { multipart: false, parserDecoder: { ignoreUnknownKeys: false } })
  await app.register(weftContext)
  // JSON only: every other body (text, forms, XML, multipart) is answered 415 by Fastify.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'))

  await app.register(helmet)
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      Object.assign(new ApiErrors.RateLimited(), { retryAfter: Math.max(1, Math.ceil(context.ttl / 1000)) }),
  })
  await registerTokens(app, settings.secret, settings.tokenTtlSeconds)
  await registerOpenApi(app)
  installErrorHandling(app)

  const repository = usersRepository(options.database.db)
  const hasher = createPasswordHasher(settings.scryptCost)
  const limit = { max: settings.loginRateLimitMax, timeWindow: settings.loginRateLimitWindowMs }
  await app.register(healthRoutes, { database: options.database })
  await app.register(userRoutes, { repository, hasher, rateLimit: limit })
  await app.register(authRoutes, { repository, hasher, tokenTtlSeconds: settings.tokenTtlSeconds, rateLimit: limit })
  return app
}
