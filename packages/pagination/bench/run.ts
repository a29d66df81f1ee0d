/**
 * Benchmarks the hook's cost. Run: `pnpm --filter @weft/pagination bench` (`BENCH_SMOKE=1` for a
 * few-second smoke run of the same code). Cases, each against a baseline measured in the same run:
 *
 * - route: `GET /items` through `app.inject`, hand-parsing the query in the handler (baseline) vs
 *   the same route with `paginate()` and `fromContext(request)` (the goal: >= 0.97x), and with the
 *   opt-in `asyncContext: true`.
 *   `AsyncLocalStorage` is switched off before every case that does not use it, so its
 *   process-wide cost is charged to the hook that enables it and not hidden in the baseline.
 * - parse: hand-written parsing and token encoding vs `parsePageInfo` + `setNextCursor`.
 *
 * The machine is shared, so each round's rate comes from the median iteration time (an iteration
 * that another process preempted is an outlier, not a trend), rounds interleave the cases, and
 * the table shows the median rate over the rounds and the median of the per-round ratios.
 */
import { writeFileSync } from 'node:fs'
import Fastify, { type FastifyInstance } from 'fastify'
import { Bench } from 'tinybench'
import { resolveConfig } from '../src/config.js'
import { currentPageInfo } from '../src/context.js'
import { fromContext, type PaginationConfig, paginate } from '../src/index.js'
import { parsePageInfo } from '../src/parse.js'

const smoke = process.env.BENCH_SMOKE === '1'
const ROUNDS = smoke ? 5 : 25
const TIME = smoke ? 40 : 100
const WARMUP = smoke ? 20 : 25
/** Calls per sample in the parse group, so one sample is far above the clock's resolution. */
const BATCH = 200

const ALLOWED = ['id', 'price', 'name']
const URL_ = '/items?page=3&limit=20&sort=-price,id&q=shoes'
type Query = Record<string, string | undefined>

/** What a handler would write without the component: the same rules, minus the edge cases. */
function handParse(query: Query) {
  const page = Math.max(1, Number.parseInt(query.page ?? '', 10) || 1)
  const limit = Math.min(100, Math.max(1, Number.parseInt(query.limit ?? '', 10) || 10))
  const offset = Math.max(0, Number.parseInt(query.offset ?? '', 10) || 0)
  const sort = (query.sort ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => ALLOWED.includes(item.replace(/^-/, '')))
    .map((item) => ({ field: item.replace(/^-/, ''), order: item.startsWith('-') ? 'desc' : 'asc' }))
  return { page, limit, offset, sort: sort.length > 0 ? sort : [{ field: 'id', order: 'asc' }] }
}

function baselineApp(): FastifyInstance {
  const app = Fastify()
  app.get('/items', async (request) => {
    const page = handParse(request.query as Query)
    return { page: page.page, limit: page.limit, start: page.offset || (page.page - 1) * page.limit, sort: page.sort }
  })
  return app
}

function hookedApp(config: PaginationConfig): FastifyInstance {
  const app = Fastify()
  app.get('/items', { onRequest: paginate(config) }, async (request) => {
    const page = fromContext(request)
    if (page === undefined) throw new Error('no PageInfo')
    return { page: page.page, limit: page.limit, start: page.start(), sort: page.sort }
  })
  return app
}

const resolved = resolveConfig({ allowedSorts: ALLOWED })
const query: Query = { page: '3', limit: '20', sort: '-price,id', q: 'shoes' }
const offAls = () => currentPageInfo.disable()

/** Keeps results alive so the optimiser cannot drop the work. */
export let sink: unknown

interface Case {
  group: string
  name: string
  /** Calls of the measured code per `fn` call. */
  batch?: number
  baseline?: boolean
  fn: () => unknown
  usesAls?: boolean
}

const apps = {
  baseline: baselineApp(),
  hook: hookedApp({ allowedSorts: ALLOWED }),
  hookAls: hookedApp({ allowedSorts: ALLOWED, asyncContext: true }),
}
await Promise.all(Object.values(apps).map((app) => app.ready()))

const cases: Case[] = [
  { group: 'route', name: 'no hook, hand-written parsing', baseline: true, fn: () => apps.baseline.inject(URL_) },
  { group: 'route', name: 'paginate()', fn: () => apps.hook.inject(URL_) },
  {
    group: 'route',
    name: 'paginate({ asyncContext: true })',
    usesAls: true,
    fn: () => apps.hookAls.inject(URL_),
  },
  {
    group: 'parse',
    name: 'hand-written parsing + token',
    batch: BATCH,
    baseline: true,
    fn: () => {
      for (let i = 0; i < BATCH; i++) {
        const page = handParse(query)
        sink = { page, next: Buffer.from(JSON.stringify({ price: 12, id: 42 })).toString('base64url') }
      }
    },
  },
  {
    group: 'parse',
    name: 'parsePageInfo + setNextCursor',
    batch: BATCH,
    fn: () => {
      for (let i = 0; i < BATCH; i++) {
        const page = parsePageInfo(query, resolved)
        page.setNextCursor({ price: 12, id: 42 })
        sink = page
      }
    },
  },
]

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[sorted.length >> 1] ?? 0
}
const samples = new Map<Case, number[]>(cases.map((c) => [c, []]))
for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: TIME, warmupTime: WARMUP, warmupIterations: smoke ? 5 : 50 })
  const order = cases.map((_, i) => cases[(i + round) % cases.length] as Case)
  for (const c of order) bench.add(c.name, c.fn, c.usesAls ? {} : { beforeAll: offAls })
  await bench.warmup()
  await bench.run()
  for (const c of order) {
    // ops/s from the median sample, not the mean: robust to the odd iteration that another
    // process on the machine slowed down.
    const perCall = median(bench.getTask(c.name)?.result?.samples ?? [])
    samples.get(c)?.push(perCall > 0 ? (1000 / perCall) * (c.batch ?? 1) : 0)
  }
}

/** Median over the rounds of this case's rate divided by its group baseline's in the same round. */
function ratioOf(from: Map<Case, number[]>, c: Case): number {
  const base = from.get(cases.find((b) => b.group === c.group && b.baseline) as Case) ?? []
  return median((from.get(c) ?? []).map((hz, round) => hz / (base[round] ?? Number.NaN)))
}
const rows = cases.map((c) => ({
  group: c.group,
  case: c.name,
  opsPerSec: Math.round(median(samples.get(c) ?? [])),
  ratio: ratioOf(samples, c),
}))

console.log(`\n@weft/pagination bench (${smoke ? 'smoke' : 'full'}: ${ROUNDS} rounds x ${TIME} ms, median)\n`)
console.log('| group | case | ops/s (median) | ratio vs baseline |')
console.log('|---|---|---:|---:|')
for (const r of rows) {
  const cells = [r.group, r.case, r.opsPerSec.toLocaleString('en-US'), `${r.ratio.toFixed(3)}x`]
  console.log(`| ${cells.join(' | ')} |`)
}
const goalRatio = rows.find((r) => r.case === 'paginate()')?.ratio ?? 0
console.log(`\ngoal: paginate() route >= 0.97x of the route without it: ${goalRatio.toFixed(3)}x`)
const summary = {
  node: process.version,
  smoke,
  rounds: ROUNDS,
  msPerCasePerRound: TIME,
  goal: { target: 0.97, goalRatio },
  results: rows,
}
writeFileSync(
  new URL(smoke ? './results.smoke.json' : './results.json', import.meta.url),
  `${JSON.stringify(summary, null, 2)}\n`,
)
await Promise.all(Object.values(apps).map((app) => app.close()))
