// The deterministic step of `pnpm bench`: instructions and bytes allocated per request of the peer
// servers' five routes (Weft, bare Fastify, Express 5, Hono) and of API A's product list against the
// hand-written Fastify route. CPU time on a shared machine moves by ±20 % between processes and
// runs; the instructions callgrind counts move by well under 1 %, and V8's GC trace gives the bytes.
//
// Each route is counted in a process of its own under `valgrind --tool=callgrind` (instructions,
// the main thread's, with V8 single-threaded, less V8's compiling and with no major GC in the
// counted window: tools/callgrind.mjs says why), and each server's routes in one plain process with
// V8's GC trace (bytes), through tools/count-server.mjs. A
// machine without valgrind gets the bytes only, and the instruction goals say "not measured".
// `perf` is not used.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { countFlags, countWithoutCompiling } from '../tools/callgrind.mjs'
import { compileServers } from './http/compile-servers.js'
import { type BenchDatabase, preparePostgres } from './http/database.js'
import { type PeerScenario, peerScenarios } from './http/peers.js'
import type { BenchSettings } from './settings.js'
import { selected } from './settings.js'

export interface CountRow {
  /** `hello`, `negotiation`, `query`, `json`, `pagination` (the peers), `products` (API A). */
  scenario: string
  /** `fastify`, `weft`, `express`, `hono`, `weft-schema` (query only); `products-hand`, `api-a`. */
  server: string
  /** Main thread's instructions per request; undefined without valgrind. */
  instructions?: number | undefined
  /** Bytes allocated per request (V8's GC trace). */
  bytes?: number | undefined
}

export interface CountResults {
  counter: 'callgrind' | 'none'
  warmupRequests: number
  countRequests: number
  rows: CountRow[]
  /** Why a part did not run (no valgrind, no database, a server that failed). */
  notes: string[]
}

/** A server whose routes are counted, and the scenarios it serves. */
interface CountedServer {
  server: string
  script: string
  scenarios: (PeerScenario | typeof productsScenario)[]
  env?: () => Record<string, string>
}

/** API A's product list (the (c) comparison's request). */
export const productsScenario = {
  id: 'products',
  title: 'API A product list',
  path: '/api/products?page=2&limit=20&sort=-amount',
}

const tool = fileURLToPath(new URL('../tools/count-server.mjs', import.meta.url))
function hasValgrind(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function run(command: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} exited ${code}: ${stderr.trim().slice(-600)}`)),
    )
  })
}

/**
 * Instructions per request of each scenario, one callgrind run of the server per scenario: after a
 * second dump in one process, callgrind's per-dump summary and its running totals disagree (the
 * summary even wrapped below zero), so each process dumps once, after its counted requests.
 */
async function countInstructions(
  script: string,
  scenarios: CountedServer['scenarios'],
  env: Record<string, string>,
): Promise<number[]> {
  const counts: number[] = []
  for (const scenario of scenarios) {
    const dir = mkdtempSync(join(tmpdir(), 'weft-instructions-'))
    try {
      const valgrind = ['--tool=callgrind', '--separate-threads=yes', '--instr-atstart=no', '--smc-check=all-non-file']
      await run(
        'valgrind',
        [...valgrind, `--callgrind-out-file=${dir}/out`, '--log-file=/dev/null', process.execPath, ...countFlags, tool],
        { ...env, SERVER_SCRIPT: script, SCENARIOS: JSON.stringify([scenario]), UNDER_CALLGRIND: '1' },
      )
      // the dump asked for after the counted requests: one file per thread, out.1-01 the main thread's
      const file = join(dir, 'out.1-01')
      const instructions = existsSync(file) ? countWithoutCompiling(file).instructions : Number.NaN
      counts.push(instructions / Number(env.COUNT_REQUESTS))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  return counts
}

/** Bytes allocated per request of each scenario, from one plain run with V8's GC trace. */
async function countBytes(
  script: string,
  scenarios: CountedServer['scenarios'],
  env: Record<string, string>,
): Promise<number[]> {
  const out = await run(process.execPath, [...countFlags, '--expose-gc', tool], {
    ...env,
    SERVER_SCRIPT: script,
    SCENARIOS: JSON.stringify(scenarios),
    COUNT_BYTES: '1',
  })
  const requests = Number(env.COUNT_REQUESTS)
  return scenarios.map((scenario) => {
    const section = new RegExp(`^BEGIN ${scenario.id}\\n([\\s\\S]*?)^END ${scenario.id}$`, 'm').exec(out)?.[1]
    if (section === undefined) return Number.NaN
    let bytes = 0
    for (const match of section.matchAll(/ gc=\w+ .* allocated=(\d+)/g)) bytes += Number(match[1])
    return bytes / requests
  })
}

/** Counts every selected server's routes (`BENCH_ONLY=count`, `count:peers`, `count:products`). */
export async function countRequests(settings: BenchSettings, log: (line: string) => void): Promise<CountResults> {
  const warmupRequests = Number(process.env.BENCH_COUNT_WARMUP ?? (settings.smoke ? 100 : 5_000))
  const countRequests = Number(process.env.BENCH_COUNT_REQUESTS ?? (settings.smoke ? 100 : 5_000))
  const counter = hasValgrind() ? 'callgrind' : 'none'
  const results: CountResults = { counter, warmupRequests, countRequests, rows: [], notes: [] }
  if (counter === 'none') results.notes.push('valgrind not found: bytes only, instruction goals not measured')
  const serversDir = compileServers()
  const env = { WARMUP_REQUESTS: String(warmupRequests), COUNT_REQUESTS: String(countRequests) }

  const servers: CountedServer[] = []
  // `count:peers-json` counts one scenario, `count:peers` all five; the smoke form the first one
  // selected (a cold route under callgrind takes seconds a request at first)
  const scenarios = peerScenarios
    .filter((scenario) => selected(settings, `count:peers-${scenario.id}`))
    .slice(0, settings.smoke ? 1 : undefined)
  if (scenarios.length > 0) {
    for (const server of ['fastify', 'weft', 'express', 'hono']) {
      servers.push({ server, script: `peers-${server}`, scenarios })
    }
    // the query validated through the route schema (Weft in Fastify's validation phase), against
    // bare Fastify's `/search`, whose schema Fastify's Ajv validates
    const query = scenarios.filter((scenario) => scenario.id === 'query')
    if (query.length > 0) servers.push({ server: 'weft-schema', script: 'peers-weft-schema', scenarios: query })
  }
  let database: BenchDatabase | undefined
  if (selected(settings, 'count:products')) {
    try {
      log(`  seeding ${settings.products} products on PostgreSQL for API A's product list`)
      database = await preparePostgres({ users: settings.users, products: settings.products })
      for (const [server, script] of [
        ['products-hand', 'products-hand'],
        ['api-a', 'api-a'],
      ] as const) {
        servers.push({ server, script, scenarios: [productsScenario], env: database.serverEnv })
      }
    } catch (error) {
      results.notes.push(`API A's product list not counted: ${(error as Error).message.split('\n')[0]}`)
    }
  }

  try {
    for (const item of servers) {
      const script = `${serversDir}${item.script}.js`
      const serverEnv = { ...env, ...(item.env?.() ?? {}) }
      const started = Date.now()
      try {
        const instructions =
          counter === 'callgrind' ? await countInstructions(script, item.scenarios, serverEnv) : undefined
        const bytes = await countBytes(script, item.scenarios, serverEnv)
        item.scenarios.forEach((scenario, index) => {
          results.rows.push({
            scenario: scenario.id,
            server: item.server,
            instructions: instructions?.[index],
            bytes: bytes[index],
          })
        })
        log(
          `  ${item.server}: counted ${item.scenarios.length} route(s) (${Math.round((Date.now() - started) / 1000)} s)`,
        )
      } catch (error) {
        results.notes.push(`${item.server} not counted: ${(error as Error).message.split('\n')[0]}`)
        log(`  ${item.server}: ${(error as Error).message}`)
      }
    }
  } finally {
    await database?.drop()
  }
  return results
}

/** The figure of one server and scenario. */
export function countOf(
  results: CountResults | undefined,
  scenario: string,
  server: string,
  what: 'instructions' | 'bytes',
): number | undefined {
  const value = results?.rows.find((row) => row.scenario === scenario && row.server === server)?.[what]
  return value === undefined || !Number.isFinite(value) ? undefined : value
}
