import { PGlite } from '@electric-sql/pglite'
import { createScratchDatabase, type TestDatabaseKind } from '@weft/tooling/test-db'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'

/** A drizzle database of either driver, as the tests of `@weft/pagination/drizzle` use it. */
export type Db = PgDatabase<PgQueryResultHKT>

/**
 * A drizzle database on an in-memory PGlite or on a scratch database (`label`) of the test
 * PostgreSQL server, with `max` connections, and how to close (and drop) it.
 */
export async function openTestDb(
  kind: TestDatabaseKind,
  label: string,
  max = 1,
): Promise<{ db: Db; close: () => Promise<void> }> {
  if (kind === 'pglite') {
    const client = new PGlite()
    return { db: drizzlePglite(client) as unknown as Db, close: () => client.close() }
  }
  const scratch = await createScratchDatabase(label)
  const client = postgres(scratch.url, { max, onnotice: () => {} })
  return {
    db: drizzlePostgres(client) as unknown as Db,
    close: async () => {
      await client.end()
      await scratch.drop()
    },
  }
}
