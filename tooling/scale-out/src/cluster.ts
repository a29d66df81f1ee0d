import { createScratchDatabase, type ScratchDatabase } from '@weft/tooling/test-db'
import { startHaproxy, type TestHaproxy } from './haproxy.js'
import { startRedis, type TestRedis } from './redis.js'
import { type Replica, startReplica } from './replicas.js'

/** API A as `replicas` processes behind HAProxy, on one PostgreSQL database and one Redis. */
export interface Cluster {
  /** HAProxy's address: every request of the test goes through it. */
  readonly url: string
  readonly replicas: Replica[]
  readonly redis: TestRedis
  readonly haproxy: TestHaproxy
  readonly database: ScratchDatabase
  destroy(): Promise<void>
}

export interface ClusterOptions {
  replicas?: number
  /** Extra settings of every replica (`AUTH_RATE_LIMIT`, ...). */
  env?: Record<string, string>
}

/** One secret for every replica: tokens and cursors signed by one are verified by the others. */
export const CLUSTER_SECRET = 'scale-out-test-secret-4f9c2a7e1b8d3c6a5e0f9b2d7c4a1e8f'

export async function startCluster(label: string, options: ClusterOptions = {}): Promise<Cluster> {
  const database = await createScratchDatabase(`scale_${label}`)
  const redis = await startRedis()
  const url = new URL(database.url)
  const env = {
    SECRET: CLUSTER_SECRET,
    DB_HOST: url.hostname,
    DB_PORT: url.port || '5432',
    DB_USER: decodeURIComponent(url.username),
    DB_PASSWORD: decodeURIComponent(url.password),
    DB_NAME: url.pathname.slice(1),
    REDIS_URL: redis.url,
    SCRYPT_COST: '1024',
    // HAProxy on loopback is the one proxy in front: its X-Forwarded-For names the client.
    TRUST_PROXY: '127.0.0.1',
    // Health answers 503 this long before a stopping replica closes, longer than HAProxy needs to
    // mark it down (two failed checks 200 ms apart).
    SHUTDOWN_DRAIN_MS: '1000',
    ...options.env,
  }
  const replicas: Replica[] = []
  try {
    // The first replica migrates the empty database; the others start on the migrated schema.
    for (let i = 1; i <= (options.replicas ?? 3); i++) replicas.push(await startReplica(`replica${i}`, env))
    const haproxy = await startHaproxy(replicas.map((r) => r.address))
    return {
      url: haproxy.url,
      replicas,
      redis,
      haproxy,
      database,
      async destroy() {
        await haproxy.destroy()
        for (const replica of replicas) await replica.destroy()
        await redis.destroy()
        await database.drop()
      },
    }
  } catch (error) {
    for (const replica of replicas) await replica.destroy()
    await redis.destroy()
    await database.drop()
    throw error
  }
}
