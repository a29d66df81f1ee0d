import { randomBytes } from 'node:crypto'
import postgres from 'postgres'

/** The databases an app's tests run against: always the embedded one, plus the real server when configured. */
export type TestDatabaseKind = 'pglite' | 'postgres'

/**
 * Which databases to test against. In CI a real server is required: a missing
 * `TEST_DATABASE_URL` fails the run instead of silently skipping those tests.
 */
export function testDatabaseKinds(): TestDatabaseKind[] {
  if (process.env.TEST_DATABASE_URL) return ['pglite', 'postgres']
  if (process.env.CI) {
    throw new Error('TEST_DATABASE_URL must be set in CI: the real-PostgreSQL tests may not be skipped')
  }
  return ['pglite']
}

export interface ScratchDatabase {
  /** Connection URL of a database that exists only for this test file. */
  url: string
  /** Drops the database (closing any connection still open to it). */
  drop(): Promise<void>
}

/** Creates a fresh, uniquely named database on the `TEST_DATABASE_URL` server. */
export async function createScratchDatabase(label: string): Promise<ScratchDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set')
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
      }
    },
  }
}
