import type { AddressInfo } from 'node:net'
import { DEVELOPMENT_SECRET_WARNING, ensureDevelopmentSecret } from '@weft/api-shared/config/development-secret'
import { envFilesOf, loadEnvFile } from '@weft/api-shared/config/env-file'
import { TRUST_PROXY_TRUE_WARNING } from '@weft/api-shared/config/trust-proxy'
import { startupProblem } from '@weft/api-shared/db/startup-errors'
import { docsUrl } from '@weft/api-shared/http/docs'
import { buildApp } from './app.js'
import { SettingsError, settingsFromEnv } from './config/settings.js'
import { openDatabase } from './db/client.js'

loadEnvFile(envFilesOf(new URL('../', import.meta.url)))
const generatedSecret = ensureDevelopmentSecret()

let settings: ReturnType<typeof settingsFromEnv>
try {
  settings = settingsFromEnv(process.env)
} catch (error) {
  if (!(error instanceof SettingsError)) throw error
  process.stderr.write(`api-b refuses to start: ${error.message}\n`)
  process.exit(1)
}

let database: Awaited<ReturnType<typeof openDatabase>>
try {
  database = await openDatabase(settings.database)
  await database.migrate()
} catch (error) {
  // A database that is missing or not running is a setup step, said in one line; anything else is a fault.
  const problem = startupProblem(error, settings.database)
  if (!problem) throw error
  process.stderr.write(`api-b: ${problem}\n`)
  process.exit(1)
}
const app = await buildApp({ database, settings, logger: { level: settings.logLevel } })
app.log.info(`using ${database.description}`)
if (generatedSecret) app.log.warn(DEVELOPMENT_SECRET_WARNING)
if (settings.trustProxy === true) app.log.warn(TRUST_PROXY_TRUE_WARNING)

// SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish, then close the pool.
const shutdown = async (signal: string) => {
  app.log.info(`${signal} received, shutting down`)
  await app.close()
  await database.close()
  process.exit(0)
}
process.once('SIGTERM', () => void shutdown('SIGTERM'))
process.once('SIGINT', () => void shutdown('SIGINT'))

await app.listen({ port: settings.port, host: settings.host })
app.log.info(`Swagger UI at ${docsUrl(app.server.address() as AddressInfo)}`)
