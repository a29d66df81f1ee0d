import { setParserDecoder } from '@weft/binding'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { auth } from './auth/plugin.js'
import type { Settings } from './config/settings.js'
import type { DatabaseHandle } from './db/client.js'
import { installDocs } from './http/docs.js'
import { frameworkErrors, installErrorHandling } from './http/error-handler.js'
import { redactedPaths } from './http/logging.js'
import { installSecurity } from './http/security.js'
import { authRoutes } from './routes/auth.js'
import { healthRoutes } from './routes/health.js'
import { productRoutes } from './routes/products.js'
import { userRoutes } from './routes/users.js'
import { ErrorEnvelopeSchema } from './schemas/common.js'

export interface AppOptions {
  database: DatabaseHandle
  settings: Settings
  /** Fastify's logger option (off unless given); secrets are redacted whatever it says. */
  logger?: FastifyServerOptions['logger']
}

function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false
  const options = logger === true ? {} : logger
  return { ...options, redact: { paths: redactedPaths, censor: '[redacted]' } }
}

/** Builds the API without listening, so tests can `inject` into it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { database, settings } = options
  const app = Fastify({
    logger: withRedaction(options.logger),
    bodyLimit: settings.bodyLimit,
    handlerTimeout: settings.handlerTimeoutMs,
    // A client that trickles its request in is cut off too (Node's own default is five minutes).
    requestTimeout: 30_000,
    trustProxy: settings.trustProxy,
    routerOptions: { maxParamLength: 200 },
    frameworkErrors,
  })
  // Bodies, ids and queries are read (and checked) in the handlers: the route schemas document them.
  app.setValidatorCompiler(() => () => true)
  // @weft/binding: a body field the schema does not name is an error, not silently dropped.
  setParserDecoder(app, { ignoreUnknownKeys: false })
  // JSON only: other bodies answer 415.
  app.removeContentTypeParser('text/plain')
  app.addSchema(ErrorEnvelopeSchema)
  installErrorHandling(app)
  await installSecurity(app)
  await installDocs(app)
  await app.register(auth, { db: database.db, ...settings })
  await app.register(healthRoutes, { database })
  await app.register(authRoutes, {
    db: database.db,
    rateLimit: { max: settings.authRateLimit, timeWindow: settings.authRateWindowMs },
  })
  await app.register(userRoutes, { db: database.db })
  await app.register(productRoutes, { db: database.db, cursorSecret: settings.secret })
  return app
}
