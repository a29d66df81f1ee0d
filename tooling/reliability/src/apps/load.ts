import type { FastifyInstance, FastifyServerOptions } from 'fastify'

/**
 * The part of an example API's modules the suite uses. The apps are imported by a specifier computed at
 * run time, on purpose: both declare `@fastify/jwt`'s payload type differently (each is right in its own
 * program), so one TypeScript program cannot include both. This interface is their shared surface.
 */
export interface ApiModules<Settings> {
  buildApp(options: {
    database: DatabaseHandle
    settings: Settings
    logger?: FastifyServerOptions['logger']
  }): Promise<FastifyInstance>
  openDatabase(settings: { kind: 'pglite' } | { kind: 'postgres'; url: string }): Promise<DatabaseHandle>
}

/** The database handle both apps' `openDatabase` returns. */
export interface DatabaseHandle {
  migrate(): Promise<void>
  close(): Promise<void>
}

/** Imports an app's `src/app.ts` and `src/db/client.ts` (TypeScript source, through the workspace link). */
export async function loadApi<Settings>(name: 'api-a' | 'api-b'): Promise<ApiModules<Settings>> {
  const base = `@weft/${name}/src`
  const app = (await import(`${base}/app.ts`)) as Pick<ApiModules<Settings>, 'buildApp'>
  const db = (await import(`${base}/db/client.ts`)) as Pick<ApiModules<Settings>, 'openDatabase'>
  return { buildApp: app.buildApp, openDatabase: db.openDatabase }
}

/** An example API running in this process on an in-memory PGlite database, migrated. */
export interface InProcessApi<Settings> {
  app: FastifyInstance
  settings: Settings
  /** The app's database, to take it away under a running app (`close()` closes it too). */
  database: DatabaseHandle
  close(): Promise<void>
}

/**
 * Builds an example API in this process with the given settings (what `app.inject` tests need); the
 * logger is off unless given (the fuzzer passes one that captures every line).
 */
export async function startInProcess<Settings>(
  name: 'api-a' | 'api-b',
  settings: Settings,
  logger: FastifyServerOptions['logger'] = false,
): Promise<InProcessApi<Settings>> {
  const { buildApp, openDatabase } = await loadApi<Settings>(name)
  const database = await openDatabase({ kind: 'pglite' })
  await database.migrate()
  const app = await buildApp({ database, settings, logger })
  await app.ready()
  return {
    app,
    settings,
    database,
    async close() {
      await app.close()
      // A test may have closed it already, to take the database away from the running app.
      await database.close().catch(() => {})
    },
  }
}
