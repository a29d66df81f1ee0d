/**
 * Benchmarks. Run: `pnpm --filter @weft/context bench` (`BENCH_SMOKE=1` for a few-second run of
 * the same code).
 *
 * - accepts: weft's negotiation (parse the Accept header + pick an offer, no cache reused across
 *   iterations) vs `negotiator` (`new Negotiator(req).mediaType(offers)`), on real browser headers.
 * - overhead: a hello route through `app.inject`: bare Fastify (baseline) vs `@weft/binding` alone
 *   (which weftContext registers), weftContext registered, `handle()`, and `request.ctx` in a plain
 *   handler. Each sample runs in a fresh child process (see overhead.ts), timed in CPU time.
 *
 * Rounds interleave the cases; tables show the median ops/s over the rounds and the ratio of the
 * medians against the baseline of the same run. Results go to bench/results.json (smoke runs: results.smoke.json).
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import Negotiator from 'negotiator'
import { Bench } from 'tinybench'
import { parseAccept } from '../src/negotiation/accept-header.js'
import { negotiate } from '../src/negotiation/accepts.js'
import { BROWSER_ACCEPT_HEADERS, OFFERS } from './headers.js'
import { OVERHEAD_CASES, type OverheadCase } from './overhead.js'

const smoke = process.env.BENCH_SMOKE === '1'
const ROUNDS = smoke ? 5 : 7
const OVERHEAD_ROUNDS = smoke ? 1 : 5
const TIME = smoke ? 30 : 300
const WARMUP = smoke ? 10 : 100

interface Case {
  name: string
  fn: () => unknown
}
interface Group {
  group: string
  baseline: string
  cases: Case[]
  /** Measured by `overheadRound` in a child process instead of `fn`. */
  sampled?: boolean
}

let sink = 0
const requests = BROWSER_ACCEPT_HEADERS.map((accept) => ({ headers: { accept } }))

const acceptsGroup: Group = {
  group: 'accepts',
  baseline: 'negotiator',
  cases: [
    {
      name: 'negotiator',
      fn: () => {
        for (const request of requests) sink += new Negotiator(request).mediaType(OFFERS)?.length ?? 0
      },
    },
    {
      name: 'weft accepts()',
      fn: () => {
        for (const header of BROWSER_ACCEPT_HEADERS)
          sink += negotiate('media', parseAccept(header, 'media'), OFFERS).length
      },
    },
  ],
}

/** One round of the overhead cases, measured in a fresh child process. */
function overheadRound(order: readonly OverheadCase[]): Record<string, number[]> {
  const script = fileURLToPath(new URL('./overhead.ts', import.meta.url))
  const [slices, time] = smoke ? [4, 10] : [12, 40]
  const args = [...process.execArgv, script, 'round', JSON.stringify(order), String(slices), String(time)]
  return JSON.parse(execFileSync(process.execPath, args).toString()) as Record<string, number[]>
}

const overheadGroup: Group = {
  group: 'overhead',
  baseline: 'bare Fastify',
  cases: OVERHEAD_CASES.map((name) => ({ name, fn: () => undefined })),
  sampled: true,
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

const results: Record<string, Record<string, { opsPerSec: number; ratio: number }>> = {}
for (const group of [acceptsGroup, overheadGroup]) {
  const samples = new Map<string, number[]>(group.cases.map((c) => [c.name, []]))
  const rounds = group.sampled ? OVERHEAD_ROUNDS : ROUNDS
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? group.cases : [...group.cases].reverse()
    if (group.sampled) {
      const hz = overheadRound(order.map((c) => c.name as OverheadCase))
      for (const c of order) samples.get(c.name)?.push(...(hz[c.name] ?? []))
      continue
    }
    const bench = new Bench({ time: TIME, warmupTime: WARMUP })
    for (const c of order) bench.add(c.name, c.fn)
    await bench.warmup()
    await bench.run()
    for (const task of bench.tasks) samples.get(task.name)?.push(task.result?.hz ?? 0)
  }
  const base = median(samples.get(group.baseline) ?? [0])
  const rows: Record<string, { opsPerSec: number; ratio: number }> = {}
  const what = group.sampled ? `${rounds} processes, median of all slices` : `${rounds} rounds, median`
  console.log(`\n### ${group.group} (${what})\n`)
  console.log('| case | ops/s | vs baseline |')
  console.log('|---|---:|---:|')
  for (const c of group.cases) {
    const ops = median(samples.get(c.name) ?? [0])
    rows[c.name] = { opsPerSec: Math.round(ops), ratio: Number((ops / base).toFixed(3)) }
    console.log(`| ${c.name} | ${Math.round(ops).toLocaleString('en-US')} | ${(ops / base).toFixed(2)}x |`)
  }
  results[group.group] = rows
}
if (sink < 0) console.log(sink)
writeFileSync(
  new URL(smoke ? './results.smoke.json' : './results.json', import.meta.url),
  `${JSON.stringify({ smoke, rounds: ROUNDS, overheadRounds: OVERHEAD_ROUNDS, results }, null, 2)}\n`,
)
