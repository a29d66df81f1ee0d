import { buildApp } from './app.js'
import { DEVELOPMENT_SECRET_WARNING, ensureDevelopmentSecret } from './config/development-secret.js'
import { loadEnvFile } from './config/env-file.js'
import { SettingsError, settingsFromEnv } from './config/settings.js'
import { databaseSettingsFromEnv, openDatabase } from './db/client.js'

loadEnvFile()
const generatedSecret = ensureDevelopmentSecret()

let settings: ReturnType<typeof settingsFromEnv>
try {
  settings = settingsFromEnv()
} catch (error) {
  if (!(error instanceof SettingsError)) throw error
  process.stderr.write(`api-a: refusing to start: ${error.message}\n`)
  process.exit(1)
}

const database = await openDatabase(databaseSettingsFromEnv())
await database.migrate()
const app = await buildApp({ database, settings, logger: { level: process.env.LOG_LEVEL ?? 'info' } })
app.log.info(`using ${database.description}`)
if (generatedSecret) app.log.warn(DEVELOPMENT_SECRET_WARNING)

/** How long in-flight requests get to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000
let stopping = false
/** Stops accepting connections, lets in-flight requests finish, then closes the database pool. */
const shutdown = async (signal: string) => {
  if (stopping) return
  stopping = true
  app.log.info(`${signal}: shutting down`)
  // Keep-alive connections would hold close() open for Fastify's 72 s keepAliveTimeout: drop each one as
  // soon as its in-flight request is answered, and all of them after a grace period.
  const dropIdle = setInterval(() => app.server.closeIdleConnections(), 50)
  const deadline = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS)
  await app.close()
  clearInterval(dropIdle)
  clearTimeout(deadline)
  await database.close()
  process.exit(0)
}
process.once('SIGTERM', () => void shutdown('SIGTERM'))
process.once('SIGINT', () => void shutdown('SIGINT'))

await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '0.0.0.0' })
