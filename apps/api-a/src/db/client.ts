import * as shared from '@weft/api-shared/db/client'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import * as schema from './schema.js'

export type { DatabaseSettings } from '@weft/api-shared/db/client'

/** The drizzle database, whichever driver is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>
export type DatabaseHandle = shared.DatabaseHandle<Database>

const appFolder = new URL('../../', import.meta.url)
const options: shared.DatabaseOptions<typeof schema> = {
  schema,
  appFolder,
  migrationLock: 'weft:api-a:migrations',
  maxLifetime: 30 * 60,
  connection: { statement_timeout: 10_000, lock_timeout: 5_000, idle_in_transaction_session_timeout: 30_000 },
}

/** The database settings of the environment (`.pglite/` of this app when none is set). */
export const databaseSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env) =>
  shared.databaseSettingsFromEnv(env, appFolder)

/** Opens the database the settings describe, with this app's tables and migrations. */
export const openDatabase = (settings: shared.DatabaseSettings): Promise<DatabaseHandle> =>
  shared.openDatabase(settings, options)
