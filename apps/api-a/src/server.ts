import type { AddressInfo } from 'node:net'
import { DEVELOPMENT_SECRET_WARNING, ensureDevelopmentSecret } from '@weft/api-shared/config/development-secret'
import { envFilesOf, loadEnvFile } from '@weft/api-shared/config/env-file'
import { TRUST_PROXY_TRUE_WARNING } from '@weft/api-shared/config/trust-proxy'
import { startupProblem } from '@weft/api-shared/db/startup-errors'
import { docsUrl } from '@weft/api-shared/http/docs'
import { buildApp } from './app.js'
import { SettingsError, settingsFromEnv } from './config/settings.js'
import { databaseSettingsFromEnv, openDatabase } from './db/client.js'

loadEnvFile(envFilesOf(new URL('../', import.meta.url)))
const generatedSecret = ensureDevelopmentSecret()

let settings: ReturnType<typeof settingsFromEnv>
try {
  settings = settingsFromEnv()
} catch (error) {
  if (!(error instanceof SettingsError)) throw error
  process.stderr.write(`api-a: refusing to start: ${error.message}\n`)
  process.exit(1)
}

const databaseSettings = databaseSettingsFromEnv()
let database: Awaited<ReturnType<typeof openDatabase>>
try {
  database = await openDatabase(databaseSettings)
  await database.migrate()
} catch (error) {
  // A database that is missing or not running is a setup step, said in one line; anything else is a fault.
  const problem = startupProblem(error, databaseSettings)
  if (!problem) throw error
  process.stderr.write(`api-a: ${problem}\n`)
  process.exit(1)
}
const app = await buildApp({ database, settings, logger: { level: process.env.LOG_LEVEL ?? 'info' } })
app.log.info(`using ${database.description}`)
if (generatedSecret) app.log.warn(DEVELOPMENT_SECRET_WARNING)
if (settings.trustProxy === true) app.log.warn(TRUST_PROXY_TRUE_WARNING)

/** How long in-flight requests get to finish after SIGTERM. */
const SHUTDOWN_GRACE_MS = 10_000
/**
 * How long health answers 503 before the server stops listening (`SHUTDOWN_DRAIN_MS`, default 0): behind a
 * load balancer, longer than its health checks take to mark a server down, so it stops sending first.
 */
const SHUTDOWN_DRAIN_MS = Math.max(0, Number(process.env.SHUTDOWN_DRAIN_MS ?? 0) || 0)
let stopping = false
/** Turns health unhealthy, drains, stops accepting connections, lets in-flight requests finish, then closes the pool. */
const shutdown = async (signal: string) => {
  if (stopping) return
  stopping = true
  app.log.info(`${signal}: shutting down`)
  app.draining = true
  if (SHUTDOWN_DRAIN_MS > 0) await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_DRAIN_MS))
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
app.log.info(`Swagger UI at ${docsUrl(app.server.address() as AddressInfo)}`)
