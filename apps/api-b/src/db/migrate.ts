import { envFilesOf, loadEnvFile } from '@weft/api-shared/config/env-file'
import { databaseSettingsFromEnv, openDatabase } from './client.js'

// `node dist/db/migrate.js`: applies the committed migrations and exits (the container runs it
// before the server, so a failed migration stops the deployment).
loadEnvFile(envFilesOf(new URL('../../', import.meta.url)))
const database = await openDatabase(databaseSettingsFromEnv(process.env))
try {
  await database.migrate()
  process.stdout.write(`migrations applied to ${database.description}\n`)
} finally {
  await database.close()
}
