import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@weft/tooling/test-server'
import postgres from 'postgres'
import { run } from '../process/exec.js'

/**
 * A PostgreSQL server that exists only for one test file: its own data directory in a temp folder, its
 * own free port, started from the binaries under `/usr/lib/postgresql/<version>/bin` as the `postgres`
 * system user (initdb refuses to run as root). The faults are injected here, never on the shared
 * server on 5432.
 *
 * @example
 * const pg = await startThrowawayPostgres()
 * try { await pg.stop(); await pg.start() } finally { await pg.destroy() }
 */
export interface ThrowawayPostgres {
  /** Superuser URL of the `postgres` database. */
  readonly url: string
  readonly port: number
  readonly dataDir: string
  /** URL of another database on this server. */
  urlOf(database: string): string
  /** Creates a database and returns its URL. */
  createDatabase(name: string): Promise<string>
  /** Stops the server (`fast`: clients are disconnected, in-progress transactions rolled back). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>
  /** `pg_terminate_backend` of every client connection to `database`; resolves with how many. */
  terminateBackends(database: string): Promise<number>
  /** Runs one query on `database` through a short-lived connection. */
  query<T extends object>(database: string, text: string, params?: unknown[]): Promise<T[]>
  /** Stops the server (immediately) and removes its data directory. Safe to call twice. */
  destroy(): Promise<void>
}

/** The newest installed PostgreSQL's binary folder. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) throw new Error(`no PostgreSQL binaries under ${root}`)
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
  if (!versions[0]) throw new Error(`no pg_ctl under ${root}/*/bin`)
  return join(root, versions[0], 'bin')
}

const asRoot = process.getuid?.() === 0

/** Runs a PostgreSQL binary as the `postgres` system user when we are root, else as ourselves. */
function pgCommand(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args]
}

const live = new Set<ThrowawayPostgres>()
let exitHookInstalled = false

/** Last resort when a test process dies without its `afterAll`: stop and remove every server still up. */
function installExitHook(bin: string) {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const pg of live) {
      try {
        const [file, args] = pgCommand(join(bin, 'pg_ctl'), ['-D', pg.dataDir, '-m', 'immediate', 'stop'])
        execFileSync(file, args, { stdio: 'ignore', timeout: 10_000 })
      } catch {
        // already stopped
      }
      rmSync(pg.dataDir, { recursive: true, force: true })
    }
  })
}

/** initdb + pg_ctl start on a free port in a fresh temp directory. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir()
  installExitHook(bin)
  const root = mkdtempSync(join(tmpdir(), 'weft-reliability-pg-'))
  const dataDir = join(root, 'data')
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    chownSync(root, uid, gid)
  }
  const port = await freePort()
  const pgRun = (name: string, args: string[], timeoutMs = 60_000) => {
    const [file, full] = pgCommand(join(bin, name), args)
    return run(file, full, { timeoutMs })
  }
  let destroyed = false
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`

  const start = async () => {
    // The socket lives in the data dir; fsync off: only process faults are simulated, never power loss.
    const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
    await pgRun('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(root, 'server.log'), '-w', '-t', '60', 'start'])
  }

  const query = async <T extends object>(database: string, text: string, params: unknown[] = []) => {
    const sql = postgres(urlOf(database), { max: 1, onnotice: () => {}, connect_timeout: 10 })
    try {
      return (await sql.unsafe(text, params as never[])) as unknown as T[]
    } finally {
      await sql.end({ timeout: 5 })
    }
  }

  const pg: ThrowawayPostgres = {
    url: urlOf('postgres'),
    port,
    dataDir,
    urlOf,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`)
      await query('postgres', `create database ${name}`)
      return urlOf(name)
    },
    stop: async (mode = 'fast') => {
      await pgRun('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop'])
    },
    start,
    async terminateBackends(database) {
      const rows = await query<{ terminated: boolean }>(
        'postgres',
        'select pg_terminate_backend(pid) as terminated from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      )
      return rows.filter((r) => r.terminated).length
    },
    query,
    async destroy() {
      if (destroyed) return
      destroyed = true
      live.delete(pg)
      try {
        await pgRun('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], 30_000)
      } catch {
        // not running
      }
      rmSync(root, { recursive: true, force: true })
    },
  }
  live.add(pg)
  try {
    await pgRun('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'])
    await start()
  } catch (error) {
    await pg.destroy()
    throw error
  }
  return pg
}
