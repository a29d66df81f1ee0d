import { loadEnvFile } from '../config/settings.js'
import { databaseSettingsFromEnv, openDatabase } from './client.js'

// `node dist/db/migrate.js`: applies the committed migrations and exits (the container runs it
// before the server, so a failed migration stops the deployment).
loadEnvFile()
const database = await openDatabase(databaseSettingsFromEnv(process.env))
try {
  await database.migrate()
  process.stdout.write(`migrations applied to ${database.description}\n`)
} finally {
  await database.close()
}
