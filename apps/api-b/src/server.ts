import { buildApp } from './app.js'
import { openDatabase } from './db/client.js'
import { DEVELOPMENT_SECRET_WARNING, ensureDevelopmentSecret } from './development-secret.js'
import { loadEnvFile, SettingsError, settingsFromEnv } from './settings.js'

loadEnvFile()
const generatedSecret = ensureDevelopmentSecret()

let settings: ReturnType<typeof settingsFromEnv>
try {
  settings = settingsFromEnv(process.env)
} catch (error) {
  if (!(error instanceof SettingsError)) throw error
  process.stderr.write(`api-b refuses to start: ${error.message}\n`)
  process.exit(1)
}

const database = await openDatabase(settings.database)
await database.migrate()
const app = await buildApp({ database, settings, logger: { level: settings.logLevel } })
app.log.info(`using ${database.description}`)
if (generatedSecret) app.log.warn(DEVELOPMENT_SECRET_WARNING)

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
