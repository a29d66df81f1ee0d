import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A database prepared for the API A comparisons: migrated, with the bench user and seeded products. */
export interface BenchDatabase {
  kind: 'pglite' | 'postgres'
  /** Environment for one server process (each PGlite server gets its own copy of the seeded files). */
  serverEnv(): Record<string, string>
  drop(): Promise<void>
}

/** Where the data lives, as API A's `openDatabase` takes it. */
type DatabaseSettings = Parameters<typeof import('@weft/api-a/src/db/client.ts').openDatabase>[0]

/** Seeds through API A's own code: its migrations, its register route for the bench user, its tables. */
async function seed(settings: DatabaseSettings, counts: { users: number; products: number }): Promise<void> {
  const { openDatabase } = await import('@weft/api-a/src/db/client.ts')
  const { buildApp } = await import('@weft/api-a/src/app.ts')
  const { products, users } = await import('@weft/api-a/src/db/schema.ts')
  const { apiSettings, benchUser } = await import('../servers/api-a-env.ts')
  const database = await openDatabase(settings)
  try {
    await database.migrate()
    const app = await buildApp({ database, settings: apiSettings() })
    const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: benchUser })
    await app.close()
    if (registered.statusCode !== 201) throw new Error(`register answered ${registered.statusCode}: ${registered.body}`)
    const owners = await database.db
      .insert(users)
      .values(
        Array.from({ length: counts.users }, (_, i) => ({
          username: `owner_${i}`,
          email: `owner_${i}@example.com`,
          passwordHash: 'scrypt$1024$8$1$not-a-real-salt$not-a-real-key',
        })),
      )
      .returning({ id: users.id })
    for (let start = 0; start < counts.products; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, counts.products - start) }, (_, k) => {
        const i = start + k
        return {
          title: `Product ${String(i).padStart(6, '0')}`,
          description: `Seeded product ${i} for the benchmarks: a sentence long enough to look like real data.`,
          // Many equal amounts, so the id tie-breaker of the ordering matters.
          amount: (i * 7919) % 5000,
          ownerId: owners[i % owners.length]!.id,
        }
      })
      await database.db.insert(products).values(batch)
    }
  } finally {
    await database.close()
  }
}

/** An embedded PGlite database in a temporary folder, copied for every server that opens it. */
export async function preparePglite(counts: { users: number; products: number }): Promise<BenchDatabase> {
  const root = mkdtempSync(join(tmpdir(), 'weft-bench-'))
  const seeded = join(root, 'seed')
  try {
    await seed({ kind: 'pglite', dataDir: seeded }, counts)
  } catch (error) {
    rmSync(root, { recursive: true, force: true })
    throw error
  }
  let copies = 0
  return {
    kind: 'pglite',
    serverEnv() {
      const dir = join(root, `server-${++copies}`)
      cpSync(seeded, dir, { recursive: true })
      return { BENCH_DB_KIND: 'pglite', BENCH_PGLITE_DIR: dir }
    },
    async drop() {
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/** A scratch database on the `TEST_DATABASE_URL` server, dropped by `drop()`. */
export async function preparePostgres(counts: { users: number; products: number }): Promise<BenchDatabase> {
  const { createScratchDatabase } = await import('@weft/tooling/test-db')
  const scratch = await createScratchDatabase('bench')
  try {
    await seed({ kind: 'postgres', url: scratch.url }, counts)
  } catch (error) {
    await scratch.drop()
    throw error
  }
  return {
    kind: 'postgres',
    serverEnv: () => ({ BENCH_DB_KIND: 'postgres', BENCH_DATABASE_URL: scratch.url }),
    drop: () => scratch.drop(),
  }
}
