import { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'

/** Where the data lives: a PostgreSQL server, or the embedded PGlite database (a folder, or memory). */
export type DatabaseSettings = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir?: string }

export interface DatabaseHandle<Db> {
  db: Db
  settings: DatabaseSettings
  /** A log-safe description (no password). */
  description: string
  /** Applies the committed migrations in the app's `drizzle/`. */
  migrate(): Promise<void>
  close(): Promise<void>
}

/** What differs between the apps: their tables, their folder, and how long a session may hold things. */
export interface DatabaseOptions<Schema extends Record<string, unknown>> {
  schema: Schema
  /** The app's folder (holding `drizzle/` and the default `.pglite/`), as a URL ending in `/`. */
  appFolder: URL
  /** Session settings of each PostgreSQL connection (`statement_timeout`, ...). */
  connection: Record<string, number>
  /** Seconds before a pooled connection is replaced; postgres.js's default when absent. */
  maxLifetime?: number
}

/**
 * The advisory lock replicas take to migrate one at a time. One per database, like the migrations table
 * drizzle keeps in it.
 */
const migrationLock = 'weft:migrations'

/**
 * Reads the database settings from the environment: `DATABASE_URL`, or `DB_HOST`/`DB_PORT`/`DB_USER`/
 * `DB_PASSWORD`/`DB_NAME` (`DB_HOST` defaults to `localhost`; compose sets the service name). With none of
 * them the embedded database is used (in `PGLITE_DIR`, else `.pglite/` in `appFolder`).
 */
export function databaseSettingsFromEnv(env: NodeJS.ProcessEnv, appFolder: URL): DatabaseSettings {
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL }
  const keys = ['DB_HOST', 'DB_PORT', 'DB_USER', 'DB_PASSWORD', 'DB_NAME'] as const
  if (keys.some((key) => env[key])) {
    const url = new URL('postgres://localhost')
    url.hostname = env.DB_HOST || 'localhost'
    url.port = env.DB_PORT || '5432'
    url.username = encodeURIComponent(env.DB_USER || 'postgres')
    url.password = encodeURIComponent(env.DB_PASSWORD || '')
    url.pathname = `/${encodeURIComponent(env.DB_NAME || 'postgres')}`
    return { kind: 'postgres', url: url.toString() }
  }
  return { kind: 'pglite', dataDir: env.PGLITE_DIR || new URL('.pglite', appFolder).pathname }
}

/** Opens the database the settings describe, with the app's tables. */
export async function openDatabase<Schema extends Record<string, unknown>>(
  settings: DatabaseSettings,
  options: DatabaseOptions<Schema>,
): Promise<DatabaseHandle<PgDatabase<PgQueryResultHKT, Schema>>> {
  const { schema } = options
  const migrationsFolder = new URL('drizzle', options.appFolder).pathname
  if (settings.kind === 'postgres') {
    // Bounded waits: a dead or unreachable server fails requests fast (503) instead of hanging them.
    const client = postgres(settings.url, {
      max: 10,
      connect_timeout: 5,
      // No array-type lookup on each new connection: no column is an array, and postgres.js 3.4.9 runs
      // that lookup with its promise dropped, so a lookup cancelled by statement_timeout or cut by a
      // restart is an unhandled rejection that ends the process (porsager/postgres#1192, #1205).
      fetch_types: false,
      // During an outage, queries wait for their connection's next reconnect attempt; postgres.js's
      // default backoff grows to 20 s, which held requests for 10-18 s. Retrying at most a second
      // apart makes them fail fast (503) and the pool recover within a second of the server.
      backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
      idle_timeout: 30,
      ...(options.maxLifetime === undefined ? {} : { max_lifetime: options.maxLifetime }),
      connection: options.connection,
      onnotice: () => {},
    })
    const db = drizzlePostgres(client, { schema })
    const url = new URL(settings.url)
    return {
      db,
      settings,
      description: `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`,
      // Replicas starting together would race on the same tables: a transaction holding an advisory
      // lock lets one migrate at a time (the others then find nothing left to do). Not `reserve()`:
      // with fetch_types off, postgres.js 3.4.9 never answers a reserve on a fresh pool.
      migrate: () =>
        client.begin(async (lock) => {
          await lock`select pg_advisory_xact_lock(hashtext(${migrationLock}))`
          await migratePostgres(db, { migrationsFolder })
        }),
      close: () => client.end({ timeout: 5 }),
    }
  }
  const client = settings.dataDir ? new PGlite(settings.dataDir) : new PGlite()
  const db = drizzlePglite(client, { schema })
  return {
    db,
    settings,
    description: settings.dataDir ? `embedded PGlite in ${settings.dataDir}` : 'embedded PGlite in memory',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  }
}

/** The drizzle database with an app's tables, whichever driver is underneath. */
export type DatabaseOf<Schema extends Record<string, unknown>> = PgDatabase<PgQueryResultHKT, Schema>

/**
 * An app's `databaseSettingsFromEnv` and `openDatabase`, bound to its folder (a URL ending in `/`), its tables
 * and the session settings of its PostgreSQL connections.
 */
export function appDatabase<Schema extends Record<string, unknown>>(
  appFolder: URL,
  schema: Schema,
  connection: DatabaseOptions<Schema>['connection'],
  pool: Pick<DatabaseOptions<Schema>, 'maxLifetime'> = {},
) {
  const options: DatabaseOptions<Schema> = { schema, appFolder, connection, ...pool }
  return {
    /** The database settings of the environment (`.pglite/` in the app's folder when it names no server). */
    databaseSettingsFromEnv: (env: NodeJS.ProcessEnv = process.env) => databaseSettingsFromEnv(env, options.appFolder),
    /** Opens the database the settings describe, with the app's tables and migrations. */
    openDatabase: (settings: DatabaseSettings) => openDatabase(settings, options),
  }
}
