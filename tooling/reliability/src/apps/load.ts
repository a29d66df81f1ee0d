import type { FastifyInstance } from 'fastify'

/**
 * The part of an example API's modules the suite uses. The apps are imported by a specifier computed at
 * run time, on purpose: both declare `@fastify/jwt`'s payload type differently (each is right in its own
 * program), so one TypeScript program cannot include both. This interface is their shared surface.
 */
export interface ApiModules<Settings> {
  buildApp(options: { database: DatabaseHandle; settings: Settings }): Promise<FastifyInstance>
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
  close(): Promise<void>
}

/** Builds an example API in this process with the given settings (what `app.inject` tests need). */
export async function startInProcess<Settings>(
  name: 'api-a' | 'api-b',
  settings: Settings,
): Promise<InProcessApi<Settings>> {
  const { buildApp, openDatabase } = await loadApi<Settings>(name)
  const database = await openDatabase({ kind: 'pglite' })
  await database.migrate()
  const app = await buildApp({ database, settings })
  await app.ready()
  return {
    app,
    settings,
    async close() {
      await app.close()
      await database.close()
    },
  }
}
