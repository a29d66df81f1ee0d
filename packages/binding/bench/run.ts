/**
 * `bind().query()` on a 10-field schema (ints, bools, arrays, a nested object) against the
 * alternatives a Fastify user would pick:
 *   1. `qs.parse` + Ajv (coerceTypes, compiled once)
 *   2. `qs.parse` + TypeBox `Value.Convert` + compiled `Check`
 *   3. Fastify routes through `app.inject`: its own querystring schema vs a handler using bind(),
 *      each route in processes of its own (ops per CPU-second; see `measureRoutes`).
 * The micro rows run in this process; the median of 5 rounds is reported.
 * `BENCH_SMOKE=1` runs the same code with a tiny time budget; `BENCH_PROFILE=1` profiles the route
 * tasks instead of measuring them (see `profile.ts`).
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import { parse as fastParse } from 'fast-querystring'
import type { FastifyRequest } from 'fastify'
import { parse as qsParse } from 'qs'
import { Bench } from 'tinybench'
import { Compile } from 'typebox/compile'
import { Value } from 'typebox/value'
import { bind } from '../src/index.js'
import { raw, routeApp, routes, Search } from './routes.js'

const smoke = process.env.BENCH_SMOKE === '1'
const rounds = 5
const time = smoke ? 20 : 500

// 1. qs + Ajv: the usual hand-rolled combination (Ajv compiled once, coercing in place)
const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, allErrors: false })
const ajvCheck = ajv.compile(structuredClone(Search) as object)
function qsAjv(): unknown {
  const value = qsParse(raw)
  if (!ajvCheck(value)) throw new Error('invalid')
  return value
}

// 2. qs + TypeBox: Value.Convert then the compiled validator
const typeboxCheck = Compile(Search)
function qsTypebox(): unknown {
  const value = Value.Convert(Search, qsParse(raw))
  if (!typeboxCheck.Check(value)) throw new Error('invalid')
  return value
}

// 3. bind(): Fastify's own query parse (fast-querystring) + the compiled per-schema plan
const server = {} as FastifyRequest['server']
async function weft(): Promise<unknown> {
  const request = { query: fastParse(raw), server, headers: {}, raw: {} } as unknown as FastifyRequest
  return bind(request).query(Search)
}

for (const check of [await weft(), qsAjv(), qsTypebox()]) {
  if ((check as { price: { max: number } }).price.max !== 99) throw new Error('benchmark inputs disagree')
}

// Each task runs a batch of calls, so tinybench's own per-call cost (larger for async tasks)
// does not drown the few microseconds being measured; ops/s = batches/s x batch.
const batch = 100
function batched(fn: () => unknown): () => Promise<void> {
  return async () => {
    for (let i = 0; i < batch; i++) await fn()
  }
}

type Tasks = Record<string, () => unknown>
const micro: Tasks = {
  'bind().query()': batched(weft),
  'qs.parse + Ajv': batched(qsAjv),
  'qs.parse + TypeBox Convert/Check': batched(qsTypebox),
}

if (process.env.BENCH_PROFILE === '1') {
  const { profileTasks } = await import('./profile.js')
  const tasks: Tasks = {}
  for (const [name, variant] of Object.entries(routes)) {
    const app = await routeApp(variant)
    tasks[name] = batched(() => app.inject({ url: `/?${raw}` }))
  }
  await profileTasks(tasks, smoke ? 1 : 3)
  process.exit(0)
}

/** Median-ready ops/s samples of each task: `rounds` rounds, the order rotated every round. */
async function measure(tasks: Tasks): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(Object.keys(tasks).map((name) => [name, []]))
  const entries = Object.entries(tasks)
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime: smoke ? 10 : 200, iterations: smoke ? 2 : 10 })
    // rotated, so no task always runs right after the same neighbour (GC debt)
    const shift = round % entries.length
    for (const [name, fn] of [...entries.slice(shift), ...entries.slice(0, shift)]) {
      bench.add(name, fn as () => Promise<void>)
    }
    await bench.warmup()
    await bench.run()
    for (const task of bench.tasks) samples.get(task.name)?.push((task.result?.hz ?? 0) * batch)
  }
  return samples
}

/**
 * Pins a route worker to the last core, where `taskset` and a second core exist (the workers run
 * one at a time). Left to the scheduler, identical workers measured up to 30 % apart; pinned, 2 %.
 */
function pinToLastCore(child: ChildProcess): void {
  const cores = availableParallelism()
  if (cores < 2 || child.pid === undefined) return
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cores - 1), String(child.pid)], { stdio: 'ignore' })
  } catch {
    // no taskset: unpinned
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/**
 * The route rows: each route in processes of its own (bench/route-worker.ts), twelve of each, asked
 * in interleaved rounds for the CPU time of a batch of requests. Each process's median round
 * (after the warm-up rounds) as ops per CPU-second; the row is the median over its processes.
 */
async function measureRoutes(): Promise<Map<string, number[]>> {
  // Processes of the same route differ by up to 20 % (heap and code placement): twelve of each, so
  // that the median process is not one of the outliers (with seven, the two `bind()` rows, the same
  // code for a GET, still came out 1.05x and 0.95x in one run); fewer requests per round pay for them.
  const copies = smoke ? 1 : 12
  const routeRounds = smoke ? 2 : 8
  const requests = smoke ? 200 : 6_000
  const worker = fileURLToPath(new URL('./route-worker.ts', import.meta.url))
  const workers: { name: string; child: ChildProcess; ns: number[] }[] = []
  // one copy of each route in turn, the order rotated by one route per copy: processes started
  // one after the other ran alike, and the first few started ran slowest (one route's copies all
  // started first measured 25 % slower). Rotated, each route takes each place equally often; only
  // alternating the order kept the middle route in the middle, and it measured 5-10 % ahead of the
  // other two, the same code for a GET as one of them.
  const entries = Object.entries(routes)
  for (let copy = 0; copy < copies; copy++) {
    for (const [name, variant] of entries.map((_, i) => entries[(i + copy) % entries.length]!)) {
      const child = fork(worker, {
        env: { ...process.env, ROUTE_VARIANT: variant },
        // as every benchmark server runs (bench/src/http/server-process.ts: V8's pretenuring flips at random)
        execArgv: [...process.execArgv, '--no-allocation-site-pretenuring'],
      })
      await new Promise((resolve, reject) => {
        child.once('message', resolve)
        child.once('exit', (code) => reject(new Error(`route worker ${variant} exited with ${code}`)))
      })
      pinToLastCore(child)
      workers.push({ name, child, ns: [] })
    }
  }
  const ask = (child: ChildProcess, count: number) =>
    new Promise<number>((resolve) => {
      child.once('message', (ns) => resolve(ns as number))
      child.send(count)
    })
  for (let round = 0; round < routeRounds; round++) {
    for (const w of round % 2 === 0 ? workers : [...workers].reverse()) w.ns.push(await ask(w.child, requests))
  }
  const out = new Map<string, number[]>()
  for (const w of workers) {
    w.child.removeAllListeners('exit')
    w.child.kill()
    const warm = w.ns.slice(Math.min(3, routeRounds - 1))
    out.set(w.name, [...(out.get(w.name) ?? []), 1e9 / median(warm)])
  }
  return out
}

const rows = [...(await measureRoutes()), ...(await measure(micro))]

const result = Object.fromEntries(rows.map(([name, hz]) => [name, Math.round(median(hz))]))
const hz = (name: string) => result[name] ?? 0
const ratios = {
  'bind().query() / (qs + Ajv)': hz('bind().query()') / hz('qs.parse + Ajv'),
  'bind().query() / (qs + TypeBox)': hz('bind().query()') / hz('qs.parse + TypeBox Convert/Check'),
  'route bind() / route Fastify schema': hz('route: bind().query()') / hz('route: Fastify querystring schema'),
  'route Weft schema / route Fastify schema':
    hz('route: Weft querystring schema') / hz('route: Fastify querystring schema'),
  'route bind(), multipart: false / route Fastify schema':
    hz('route: bind().query(), multipart: false') / hz('route: Fastify querystring schema'),
}

console.log('| benchmark | median ops/s |\n|---|---:|')
for (const [name, value] of Object.entries(result)) console.log(`| ${name} | ${value.toLocaleString('en-US')} |`)
console.log('\n| ratio | value |\n|---|---:|')
for (const [name, value] of Object.entries(ratios)) console.log(`| ${name} | ${value.toFixed(2)}x |`)

writeFileSync(
  new URL(smoke ? './results.smoke.json' : './results.json', import.meta.url),
  `${JSON.stringify({ smoke, rounds, node: process.version, opsPerSecond: result, ratios }, null, 2)}\n`,
)
