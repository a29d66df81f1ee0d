/**
 * `bind().query()` on a 10-field schema (ints, bools, arrays, a nested object) against the
 * alternatives a Fastify user would pick:
 *   1. `qs.parse` + Ajv (coerceTypes, compiled once)
 *   2. `qs.parse` + TypeBox `Value.Convert` + compiled `Check`
 *   3. Fastify routes through `app.inject`: its own querystring schema vs a handler using bind()
 *      (ops per CPU-second of this process).
 * Each comparison runs in the same process; the median of >= 5 rounds is reported.
 * `BENCH_SMOKE=1` runs the same code with a tiny time budget; `BENCH_PROFILE=1` profiles the route
 * tasks instead of measuring them (see `profile.ts`).
 */
import { writeFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { parse as fastParse } from 'fast-querystring'
import Fastify, { type FastifyRequest } from 'fastify'
import { parse as qsParse } from 'qs'
import { Bench } from 'tinybench'
import { Type } from 'typebox'
import { Compile } from 'typebox/compile'
import { Value } from 'typebox/value'
import { bind, weftBinding } from '../src/index.js'

const smoke = process.env.BENCH_SMOKE === '1'
const rounds = 5
const time = smoke ? 20 : 500

const Search = Type.Object({
  page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
  offset: Type.Integer({ minimum: 0 }),
  active: Type.Boolean(),
  featured: Type.Boolean(),
  q: Type.String({ maxLength: 100 }),
  sort: Type.Union([Type.Literal('price'), Type.Literal('name')]),
  colors: Type.Array(Type.String()),
  sizes: Type.Array(Type.Integer()),
  price: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
})

const raw =
  'page=2&limit=50&offset=100&active=true&featured=false&q=running%20shoes&sort=price' +
  '&colors=red&colors=blue&sizes=40&sizes=41&sizes=42&price[min]=10&price[max]=99'

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

// Route level: Fastify's querystring schema (flat keys: its parser has no nesting) vs bind()
const FlatSearch = Type.Object({
  ...Search.properties,
  price: undefined as never,
  'price[min]': Type.Integer(),
  'price[max]': Type.Integer(),
})
delete (FlatSearch.properties as Record<string, unknown>).price
;(FlatSearch as unknown as { required: string[] }).required = Object.keys(FlatSearch.properties)
const fastifyApp = Fastify()
fastifyApp.get('/', { schema: { querystring: FlatSearch } }, async (request) => request.query)
const weftApp = Fastify()
await weftApp.register(weftBinding)
weftApp.get('/', async (request) => bind(request).query(Search))
const leanApp = Fastify()
await leanApp.register(weftBinding, { multipart: false })
leanApp.get('/', async (request) => bind(request).query(Search))
await Promise.all([fastifyApp.ready(), weftApp.ready(), leanApp.ready()])

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
const routes: Tasks = {
  'route: Fastify querystring schema': batched(() => fastifyApp.inject({ url: `/?${raw}` })),
  'route: bind().query()': batched(() => weftApp.inject({ url: `/?${raw}` })),
  'route: bind().query(), multipart: false': batched(() => leanApp.inject({ url: `/?${raw}` })),
}

if (process.env.BENCH_PROFILE === '1') {
  const { profileTasks } = await import('./profile.js')
  await profileTasks(routes, smoke ? 1 : 3)
  await Promise.all([fastifyApp.close(), weftApp.close(), leanApp.close()])
  process.exit(0)
}

/** Process CPU time in ms: the route rows are timed with it, so other load on the machine counts less. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Median-ready ops/s samples of each task: `rounds` rounds, the order rotated every round. */
async function measure(tasks: Tasks, now?: () => number): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(Object.keys(tasks).map((name) => [name, []]))
  const entries = Object.entries(tasks)
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime: smoke ? 10 : 200, iterations: smoke ? 2 : 10, ...(now && { now }) })
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

// Routes first: the micro tasks' hand-made request objects would otherwise leave bind()'s
// property accesses polymorphic for the real Fastify requests (making the routes look slower);
// the other way round only makes the headline bind().query() figure conservative.
const rows = [...(await measure(routes, cpuNow)), ...(await measure(micro))]

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}
const result = Object.fromEntries(rows.map(([name, hz]) => [name, Math.round(median(hz))]))
const hz = (name: string) => result[name] ?? 0
const ratios = {
  'bind().query() / (qs + Ajv)': hz('bind().query()') / hz('qs.parse + Ajv'),
  'bind().query() / (qs + TypeBox)': hz('bind().query()') / hz('qs.parse + TypeBox Convert/Check'),
  'route bind() / route Fastify schema': hz('route: bind().query()') / hz('route: Fastify querystring schema'),
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
await Promise.all([fastifyApp.close(), weftApp.close(), leanApp.close()])
