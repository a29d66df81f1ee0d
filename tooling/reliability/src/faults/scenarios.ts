import { randomBytes } from 'node:crypto'
import { suiteSecret } from '../apps/client.js'
import { type HttpAnswer, http, httpUser } from '../apps/http.js'
import type { ThrowawayPostgres } from '../pg/throwaway.js'
import { sleep } from '../process/exec.js'
import { type ApiName, type ServerProcess, startServer } from '../process/server.js'
import { type FaultFigures, startWriteLoad, summarize, type WriteOutcome } from './write-load.js'

/**
 * The bound on any answer during a fault. The APIs connect with a 5 s `connect_timeout` precisely so a
 * dead database "fails requests fast (503) instead of hanging them"; twice that is the bound.
 */
export const answerBoundMs = 10_000

/** How long the client waits before giving up on an answer (longer than the bound, to measure). */
const clientTimeoutMs = 30_000

/** Longest the API may take, after the database is back, to acknowledge a write again. */
export const recoveryBoundMs = 30_000

/** An API server on its own database of the throwaway server, with a logged-in writer. */
export interface FaultRig {
  api: ApiName
  database: string
  server: ServerProcess
  /** Sends the n-th write (A: create a product; B: register a user). */
  write(n: number): Promise<HttpAnswer>
  /** The table the writes land in. */
  table: 'products' | 'users'
  close(): Promise<void>
}

/** The environment every server process of the suite gets: known secret, quiet logs, cheap KDF, no limiter. */
export function serverEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SECRET: suiteSecret,
    LOG_LEVEL: 'fatal',
    SCRYPT_COST: '1024',
    AUTH_RATE_LIMIT: '100000000',
    LOGIN_RATE_LIMIT_MAX: '100000000',
    // Every connection may be waiting on a password check at once: nothing is shed, so a 503 is a fault.
    PASSWORD_QUEUE_MAX: '100000',
  }
}

/** Creates a database on the throwaway server, starts the API on it, and logs a writer in. */
export async function startRig(api: ApiName, pg: ThrowawayPostgres, label: string): Promise<FaultRig> {
  const database = `weft_${api.replace('-', '_')}_${label}`
  const url = await pg.createDatabase(database)
  const server = await startServer(api, { env: serverEnv(url) })
  const tag = randomBytes(3).toString('hex')
  const writer = await httpUser(api, server.url, `writer_${tag}`)
  const write =
    api === 'api-a'
      ? (n: number) =>
          http(server.url, 'POST', '/api/products', {
            token: writer.token,
            body: { title: `write ${n}`, amount: n },
            timeoutMs: clientTimeoutMs,
          })
      : (n: number) =>
          http(server.url, 'POST', '/api/user', {
            body: { username: `w${tag}_${n}`, email: `w${tag}_${n}@example.test`, password: 'write-password-1' },
            timeoutMs: clientTimeoutMs,
          })
  return {
    api,
    database,
    server,
    write,
    table: api === 'api-a' ? 'products' : 'users',
    close: async () => {
      await server.stop(5_000)
    },
  }
}

/** What a scenario measured, plus whether the server survived it. */
export interface ScenarioFigures extends FaultFigures {
  scenario: 'outage' | 'terminate'
  /** Milliseconds the fault lasted (server down, or the span of the terminations). */
  faultMs: number
  /** Backends terminated (terminate scenario). */
  terminated?: number
  /** The server process was still running at the end. */
  serverAlive: boolean
  /** `/api/health` after the scenario. */
  healthAfter: number | null
}

async function waitForAckAfter(outcomes: WriteOutcome[], since: number): Promise<void> {
  const deadline = Date.now() + recoveryBoundMs
  while (Date.now() < deadline) {
    if (outcomes.some((o) => o.id !== undefined && o.startedAt >= since)) return
    await sleep(100)
  }
}

async function finish(
  rig: FaultRig,
  pg: ThrowawayPostgres,
  stop: () => Promise<WriteOutcome[]>,
  faultStartedAt: number,
  faultEndedAt: number,
): Promise<FaultFigures & { serverAlive: boolean; healthAfter: number | null }> {
  const outcomes = await stop()
  const ids = outcomes.flatMap((o) => (o.id === undefined ? [] : [o.id]))
  const rows = await pg.query<{ id: number }>(rig.database, `select id from ${rig.table} where id = any($1::int[])`, [
    ids,
  ])
  const figures = summarize(outcomes, faultStartedAt, faultEndedAt, new Set(rows.map((r) => r.id)), answerBoundMs)
  let healthAfter: number | null = null
  try {
    healthAfter = (await http(rig.server.url, 'GET', '/api/health', { timeoutMs: clientTimeoutMs })).status
  } catch {
    healthAfter = null
  }
  const serverAlive = await Promise.race([rig.server.exited.then(() => false), sleep(10).then(() => true)])
  return { ...figures, serverAlive, healthAfter }
}

/**
 * Stops the database for `outageMs` during a write load, then starts it again and waits for the API to
 * acknowledge writes again by itself.
 */
export async function outageScenario(rig: FaultRig, pg: ThrowawayPostgres, outageMs: number): Promise<ScenarioFigures> {
  const load = startWriteLoad({ workers: 8, pauseMs: 20, write: rig.write })
  await sleep(1_500)
  const down = Date.now()
  await pg.stop('fast')
  await sleep(outageMs)
  await pg.start()
  const back = Date.now()
  await waitForAckAfter(load.outcomes, back)
  await sleep(1_000)
  const figures = await finish(rig, pg, () => load.stop(), down, back)
  return { scenario: 'outage', faultMs: back - down, ...figures }
}

/**
 * Cuts the API's live connections with `pg_terminate_backend` every 300 ms for `spanMs` during a write
 * load, then waits for the API to acknowledge writes again by itself.
 */
export async function terminateScenario(
  rig: FaultRig,
  pg: ThrowawayPostgres,
  spanMs: number,
): Promise<ScenarioFigures> {
  const load = startWriteLoad({ workers: 8, pauseMs: 20, write: rig.write })
  await sleep(1_500)
  const began = Date.now()
  let terminated = 0
  while (Date.now() - began < spanMs) {
    terminated += await pg.terminateBackends(rig.database)
    await sleep(300)
  }
  const ended = Date.now()
  await waitForAckAfter(load.outcomes, ended)
  await sleep(1_000)
  const figures = await finish(rig, pg, () => load.stop(), began, ended)
  return { scenario: 'terminate', faultMs: ended - began, terminated, ...figures }
}
