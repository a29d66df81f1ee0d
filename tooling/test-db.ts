import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres.js'

/** The databases an app's tests run against: always the embedded one, plus the real server when configured. */
export type TestDatabaseKind = 'pglite' | 'postgres'

/**
 * Which databases to test against: the embedded PGlite always, and the real server too when
 * `TEST_DATABASE_URL` is set (CI's second pass). A fresh clone with no settings runs the first list.
 */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
}

export interface ScratchDatabase {
  /** Connection URL of a database that exists only for this test file. */
  url: string
  /** Drops the database (closing any connection still open to it). */
  drop(): Promise<void>
}

/**
 * A server for the tests that need real PostgreSQL whatever the settings: `TEST_DATABASE_URL` when
 * set, else a throwaway server of this process's own, started on first use and stopped when the last
 * scratch database on it is dropped (a fresh clone needs no database set up).
 */
let throwaway: Promise<ThrowawayPostgres> | undefined
let throwawayUsers = 0

async function acquireServerUrl(): Promise<string> {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL
  throwawayUsers++
  throwaway ??= startThrowawayPostgres()
  return (await throwaway).url
}

async function releaseServer() {
  if (process.env.TEST_DATABASE_URL || !throwaway) return
  if (--throwawayUsers > 0) return
  const server = throwaway
  throwaway = undefined
  await (await server).destroy()
}

/** Creates a fresh, uniquely named database on the real server (see `acquireServerUrl`). */
export async function createScratchDatabase(label: string): Promise<ScratchDatabase> {
  const serverUrl = await acquireServerUrl()
  const name = `weft_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  try {
    await admin.unsafe(`create database "${name}"`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const sql = postgres(serverUrl, { max: 1, onnotice: () => {} })
      try {
        await sql.unsafe(`drop database if exists "${name}" with (force)`)
      } finally {
        await sql.end()
        await releaseServer()
      }
    },
  }
}
