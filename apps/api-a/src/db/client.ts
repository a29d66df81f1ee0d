import { appDatabase, type DatabaseOf, type DatabaseHandle as Handle } from '@weft/api-shared/db/client'
import * as schema from './schema.js'

export type Database = DatabaseOf<typeof schema>
export type DatabaseHandle = Handle<Database>

/**
 * This app's database: its tables and `drizzle/` migrations. A statement may run 10 s, wait 5 s for a lock and
 * idle 30 s inside a transaction; pooled connections are replaced every 30 minutes.
 */
export const { databaseSettingsFromEnv, openDatabase } = appDatabase(
  new URL('../../', import.meta.url),
  schema,
  { statement_timeout: 10_000, lock_timeout: 5_000, idle_in_transaction_session_timeout: 30_000 },
  { maxLifetime: 30 * 60 },
)
