import { appDatabase, type DatabaseOf, type DatabaseHandle as Handle } from '@weft/api-shared/db/client'
import * as schema from './schema.js'

export type Database = DatabaseOf<typeof schema>
export type DatabaseHandle = Handle<Database>

/** This app's database: its tables and `drizzle/` migrations; a statement may run 10 s. */
export const { databaseSettingsFromEnv, openDatabase } = appDatabase(new URL('../../', import.meta.url), schema, {
  statement_timeout: 10_000,
})
