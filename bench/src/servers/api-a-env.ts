// What the benchmark servers of API A and its hand-written baselines share: the database the
// orchestrator prepared (BENCH_DB_KIND + BENCH_PGLITE_DIR or BENCH_DATABASE_URL) and API A's settings.

import { type Settings, settingsFromEnv } from '@weft/api-a/src/config/settings.ts'
import { type DatabaseHandle, openDatabase } from '@weft/api-a/src/db/client.ts'

type DatabaseSettings = Parameters<typeof openDatabase>[0]

/** HS256 key of every benchmark token (a fixed test value, never a real secret). */
export const benchSecret = 'weft-bench-secret-0123456789-abcdefghijklmnop'

/** The bench user, registered through API A's own register route when the database is prepared. */
export const benchUser = { username: 'bench_user', email: 'bench@example.com', password: 'bench-password-123' }

/** API A's settings for benchmarks: cheap scrypt (only login hashes), long-lived tokens, no auth rate limit in the way. */
export function apiSettings(): Settings {
  return settingsFromEnv({
    SECRET: benchSecret,
    SCRYPT_COST: '1024',
    ACCESS_TOKEN_TTL: '7200',
    AUTH_RATE_LIMIT: '1000',
  })
}

/** The prepared database, read from the environment the orchestrator set. */
export function databaseSettings(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  if (env.BENCH_DB_KIND === 'postgres' && env.BENCH_DATABASE_URL)
    return { kind: 'postgres', url: env.BENCH_DATABASE_URL }
  if (env.BENCH_DB_KIND === 'pglite' && env.BENCH_PGLITE_DIR) return { kind: 'pglite', dataDir: env.BENCH_PGLITE_DIR }
  throw new Error('BENCH_DB_KIND with BENCH_PGLITE_DIR or BENCH_DATABASE_URL must be set')
}

/** Opens the prepared database through API A's own client (same driver and pool settings for both sides). */
export function openBenchDatabase(): Promise<DatabaseHandle> {
  return openDatabase(databaseSettings())
}
