// bench/RESULTS.md and bench/charts/*.svg, written from one run's results (bench/results.json):
// the current tables and charts, the method in short, and how to run it again. Every line of
// RESULTS.md is generated; what a run found earlier is in git's history, not here.
//
//   pnpm --filter @weft/bench report [results.json]   # rewrites RESULTS.md and charts/ beside it
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ComparisonResult } from './http/compare.js'
import { type PeerScenarioResult, peerPairs } from './http/peers.js'
import { type CountResults, countOf, productsScenario } from './instructions.js'
import type { MachineInfo } from './machine.js'
import type { MicroSuiteResult } from './micro/rounds.js'
import { goalRatio, type PackageBenchResult, packageExtraGoals } from './packages.js'
import { type PgScaleResult, pgScaleGoal, timingOf } from './pg-scale.js'
import type { BenchSettings } from './settings.js'
import { round } from './stats.js'
import { barChart, lineChart } from './svg.js'

/** One goal and how this run measured against it. */
export interface GoalCheck {
  name: string
  required: number
  /** The goal is a ceiling (`≤ required`), not a floor. */
  atMost?: boolean
  measured: number | undefined
  /** What the ratio is made of: CPU time, instructions, ops/s or req/s, page time. */
  by?: 'cpu' | 'instructions' | 'ops' | 'time'
  /** Undefined in the smoke form or when the benchmark did not run. */
  met: boolean | undefined
  /** CPU goals: the middle half of the per-round ratios. */
  spread?: [number, number] | undefined
  /** Peers: the req/s ratio beside the CPU one. */
  measuredRequests?: number | undefined
}

/** Everything one `pnpm bench` measured: the content of `bench/results.json`. */
export interface BenchResults {
  smoke: boolean
  machine: MachineInfo
  settings: BenchSettings
  seconds: number
  goals: GoalCheck[]
  packages: PackageBenchResult[]
  micro: MicroSuiteResult[]
  http: ComparisonResult[]
  /** The peer comparison (src/http/peers.ts). */
  peers?: PeerScenarioResult[]
  /** Instructions and bytes per request (src/instructions.ts). */
  counts?: CountResults
  /** Cost as the data grows, on PostgreSQL (src/pg-scale.ts). */
  pgScale?: PgScaleResult
}

/** The peers whose instruction counts are compared with Weft's, in the order of the tables. */
const countedPeers = [
  { server: 'fastify', name: 'bare Fastify' },
  { server: 'express', name: 'Express 5' },
  { server: 'hono', name: 'Hono' },
] as const

/** Peer ÷ Weft instructions per request of one scenario (above 1.00x Weft does less). */
export function instructionRatio(counts: CountResults | undefined, scenario: string, peer: string, weft = 'weft') {
  const base = countOf(counts, scenario, peer, 'instructions')
  const mine = countOf(counts, scenario, weft, 'instructions')
  return base === undefined || mine === undefined ? undefined : base / mine
}

/** Every goal, from every part of the run. */
export function goalChecks(results: Omit<BenchResults, 'goals'>): GoalCheck[] {
  const checks: GoalCheck[] = []
  const judged = (measured: number | undefined, required: number, atMost = false) =>
    results.smoke || measured === undefined ? undefined : atMost ? measured <= required : measured >= required
  for (const item of results.packages) {
    if (item.goal === undefined) continue
    checks.push({
      name: `@weft/${item.package}: ${item.goalWhat}`,
      required: item.goal,
      measured: goalRatio(item),
      by: 'ops',
      met: item.goalMet,
    })
  }
  for (const item of results.packages) {
    for (const extra of packageExtraGoals[item.package] ?? []) {
      const values = Object.entries(item.ratios)
        .filter(([label]) => extra.ratios.test(label))
        .map(([, value]) => value)
      const measured = values.length > 0 ? Math.min(...values) : undefined
      checks.push({
        name: `@weft/${item.package}: ${extra.what}`,
        required: extra.goal,
        measured,
        by: 'ops',
        met: judged(measured, extra.goal),
      })
    }
  }
  for (const suite of results.micro) {
    if (suite.goal === undefined) continue
    checks.push({
      name: suite.title,
      required: suite.goal,
      measured: suite.tasks.at(-1)?.ratio,
      by: 'ops',
      met: suite.goalMet,
    })
  }
  // Against bare Fastify: instructions per request, scenario by scenario.
  const counted = new Set(results.counts?.rows.map((row) => row.scenario))
  for (const scenario of (results.peers ?? []).map((item) => item.id.replace(/^peers-/, ''))) counted.add(scenario)
  for (const scenario of ['hello', 'negotiation', 'query', 'json', 'pagination'].filter((id) => counted.has(id))) {
    const measured = instructionRatio(results.counts, scenario, 'fastify')
    checks.push({
      name: `peers ${scenario}: Weft vs bare Fastify`,
      required: 1,
      measured,
      by: 'instructions',
      met: judged(measured, 1),
    })
  }
  if (counted.has('query')) {
    const measured = instructionRatio(results.counts, 'query', 'fastify', 'weft-schema')
    checks.push({
      name: 'peers query through the route schema: Weft vs Fastify’s Ajv',
      required: 1,
      measured,
      by: 'instructions',
      met: judged(measured, 1),
    })
  }
  if (results.counts?.rows.some((row) => row.scenario === productsScenario.id) || results.http.length > 0) {
    const measured = instructionRatio(results.counts, productsScenario.id, 'products-hand', 'api-a')
    checks.push({
      name: 'API A product list vs the hand-written Fastify route',
      required: 1,
      measured,
      by: 'instructions',
      met: judged(measured, 1),
    })
  }
  // Against Express 5 and Hono: server CPU time per request, the pair loaded at once.
  for (const scenario of results.peers ?? []) {
    for (const item of scenario.ratios) {
      const pair = peerPairs.find((entry) => item.name.endsWith(entry.name))
      if (pair?.required === undefined) continue
      const measured = scenario.skipped ? undefined : item.cpuRatio
      checks.push({
        name: item.name,
        required: pair.required,
        measured,
        by: 'cpu',
        met: judged(measured, pair.required),
        measuredRequests: scenario.skipped ? undefined : item.ratio,
        spread: item.cpuSpread,
      })
    }
  }
  if (results.pgScale) checks.push(...pgScaleGoal(results.pgScale, results.smoke))
  return checks
}

const n = (value: number | undefined, decimals = 0) =>
  value === undefined || !Number.isFinite(value) ? '–' : round(value, decimals).toLocaleString('en-US')
const ratio = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : `${value.toFixed(2)}x`
const spread = (range: [number, number] | undefined) =>
  range === undefined || !range.every(Number.isFinite) ? '' : ` (${range[0].toFixed(2)}–${range[1].toFixed(2)})`
const met = (value: boolean | undefined) => (value === undefined ? '–' : value ? 'met' : '**missed**')
const byName = { cpu: 'server CPU time', instructions: 'instructions', ops: 'ops/s', time: 'page time' } as const

/** Chart files of a run, relative to the folder of RESULTS.md, with their SVG text. */
export function charts(results: BenchResults): { file: string; title: string; svg: string }[] {
  const out: { file: string; title: string; svg: string }[] = []
  const peers = (results.peers ?? []).filter((scenario) => !scenario.skipped)
  if (peers.length > 0) {
    const series = ['vs bare Fastify', 'vs Express 5', 'vs Hono', 'control (bare Fastify vs itself)']
    const title = 'Peer CPU time per request ÷ Weft’s (above 1.00x Weft costs less)'
    out.push({
      file: 'charts/peers-cpu.svg',
      title,
      svg: barChart({
        title,
        series,
        reference: 1,
        unit: 'x',
        groups: peers.map((scenario) => ({
          label: scenario.id.replace(/^peers-/, ''),
          values: Object.fromEntries(
            series.map((name) => [name, scenario.ratios.find((item) => item.name.endsWith(name))?.cpuRatio]),
          ),
        })),
      }),
    })
  }
  const counts = results.counts
  const scenarios = [...new Set(counts?.rows.map((row) => row.scenario))].filter((id) => id !== productsScenario.id)
  if (counts && scenarios.length > 0) {
    const title = 'Peer instructions per request ÷ Weft’s (above 1.00x Weft does less)'
    out.push({
      file: 'charts/peers-instructions.svg',
      title,
      svg: barChart({
        title,
        series: countedPeers.map((peer) => `vs ${peer.name}`),
        reference: 1,
        unit: 'x',
        groups: scenarios.map((scenario) => ({
          label: scenario,
          values: Object.fromEntries(
            countedPeers.map((peer) => [`vs ${peer.name}`, instructionRatio(counts, scenario, peer.server)]),
          ),
        })),
      }),
    })
  }
  const scale = results.pgScale
  if (scale && !scale.skipped && scale.timings.length > 0) {
    const largest = Math.max(...scale.sizes)
    const lines = (
      filter: (mode: string) => boolean,
      x: (t: PgScaleResult['timings'][number]) => number,
      rows?: number,
    ) =>
      (['api-a', 'helper'] as const).flatMap((target) =>
        (['cursor', 'offset'] as const).filter(filter).map((mode) => ({
          name: `${target === 'api-a' ? 'API A' : 'drizzle helper'}, ${mode}`,
          points: scale.timings
            .filter(
              (t) =>
                t.target === target && (t.mode === mode || t.depth === 0) && (rows === undefined || t.rows === rows),
            )
            .map((t) => ({ x: x(t), y: t.ms })),
        })),
      )
    const depthTitle = `Page time against depth, ${n(largest)} rows (PostgreSQL)`
    out.push({
      file: 'charts/pg-scale-depth.svg',
      title: depthTitle,
      svg: lineChart({
        title: depthTitle,
        xLabel: 'first row of the page (0 = first page)',
        yLabel: 'ms per page',
        series: lines(
          () => true,
          (t) => Math.max(t.depth, 1),
          largest,
        ),
        logX: true,
        formatX: (x) => (x === 1 ? '0' : n(x)),
      }),
    })
    const deepest = Math.max(...scale.timings.map((t) => t.depth))
    const sizeTitle = 'Page time at the deepest position against table size (PostgreSQL)'
    out.push({
      file: 'charts/pg-scale-size.svg',
      title: sizeTitle,
      svg: lineChart({
        title: sizeTitle,
        xLabel: 'rows in the table',
        yLabel: 'ms per page',
        series: [
          ...(['api-a', 'helper'] as const).map((target) => ({
            name: `${target === 'api-a' ? 'API A' : 'drizzle helper'}, first page`,
            points: scale.sizes.map((rows) => ({
              x: rows,
              y: timingOf(scale, target, rows, 0, 'first') ?? Number.NaN,
            })),
          })),
          ...(['api-a', 'helper'] as const).flatMap((target) =>
            (['cursor', 'offset'] as const).map((mode) => ({
              name: `${target === 'api-a' ? 'API A' : 'drizzle helper'}, ${mode} at depth`,
              points: scale.sizes.map((rows) => ({
                x: rows,
                y: timingOf(scale, target, rows, Math.min(deepest, deepestFor(scale, rows)), mode) ?? Number.NaN,
              })),
            })),
          ),
        ],
        logX: true,
        formatX: (x) => n(x),
      }),
    })
  }
  return out
}

const deepestFor = (scale: PgScaleResult, rows: number) =>
  Math.max(0, ...scale.timings.filter((t) => t.rows === rows).map((t) => t.depth))

/** RESULTS.md of a run. */
export function markdown(results: BenchResults): string {
  const { machine, settings } = results
  const lines: string[] = [
    '# Weft benchmark results',
    '',
    '<!-- generated by `pnpm bench` (bench/src/report.ts) from bench/results.json: edit the generator, not this file -->',
    '',
    `Measured ${machine.date} on ${machine.cpuModel} (${machine.cpus} cores, ${machine.memoryGiB} GiB), Node ${machine.node}` +
      `${results.smoke ? ', **smoke form: figures are not meaningful**' : ''}; ` +
      `servers ${machine.pinning ? 'pinned to core 0, load generator to core 1' : 'not pinned (taskset or a second core missing)'}; ` +
      `${settings.httpRounds} HTTP rounds of ${settings.httpSeconds} s over ${settings.httpProcesses} server process${settings.httpProcesses === 1 ? '' : 'es'} per side, medians; total ${Math.round(results.seconds)} s.` +
      ' Ratios are against a baseline measured in the same run; above 1.00x Weft does better. How to run it again: [Rerun](#rerun).',
    '',
    '## Goals',
    '',
    '| Goal | Required | Measured | Judged by | |',
    '|---|---:|---:|---|---|',
    ...results.goals.map(
      (goal) =>
        `| ${goal.name} | ${goal.atMost ? '≤' : '≥'} ${goal.required}x | ${ratio(goal.measured)}${spread(goal.spread)} | ` +
        `${goal.by ? byName[goal.by] : ''}${goal.measuredRequests === undefined ? '' : ` (req/s: ${ratio(goal.measuredRequests)})`} | ${met(goal.met)} |`,
    ),
  ]
  const pictures = charts(results)
  if (results.peers && results.peers.length > 0)
    lines.push('', ...peersMarkdown(results.peers, results.counts, pictures))
  else if (results.counts) lines.push('', ...countsMarkdown(results.counts, pictures))
  lines.push('', ...httpMarkdown(results))
  if (results.pgScale) lines.push('', ...pgScaleMarkdown(results.pgScale, pictures))
  lines.push(
    '',
    '## Micro-benchmarks',
    '',
    'tinybench, median of rounds; a package’s own (`pnpm --filter @weft/<pkg> bench`) compare two code paths in one process.',
    '',
    '| Benchmark | Task | ops/s | vs baseline |',
    '|---|---|---:|---:|',
  )
  for (const suite of results.micro) {
    if (suite.skipped) {
      lines.push(`| ${suite.title} | not run: ${suite.skipped} | | |`)
      continue
    }
    suite.tasks.forEach((task, index) => {
      lines.push(
        `| ${index === 0 ? suite.title : ''} | ${task.name} | ${n(task.opsPerSec)} | ${index === 0 ? 'baseline' : ratio(task.ratio)} |`,
      )
    })
  }
  lines.push('', '| Package | Status | Ratios reported | Goal |', '|---|---|---|---|')
  for (const item of results.packages) {
    const ratios = Object.entries(item.ratios)
      .filter(([, value]) => value !== 1)
      .map(([name, value]) => `${item.goalRatios?.includes(name) ? '**goal** ' : ''}${name}: ${ratio(value)}`)
      .join('<br>')
    const goal = item.goal === undefined ? '' : `≥ ${item.goal}x (${item.goalWhat}) ${met(item.goalMet)}`
    lines.push(
      `| @weft/${item.package} | ${item.status}${item.note ? `: ${item.note}` : ''} | ${ratios || '–'} | ${goal} |`,
    )
  }
  lines.push('', ...method, '', ...rerun)
  return `${lines.join('\n')}\n`
}

function image(pictures: ReturnType<typeof charts>, file: string): string[] {
  const picture = pictures.find((item) => item.file === file)
  return picture ? [`![${picture.title}](${picture.file})`, ''] : []
}

/** The peers: ratios by CPU time and by instructions, then every server's figures. */
export function peersMarkdown(
  peers: PeerScenarioResult[],
  counts?: CountResults,
  pictures: ReturnType<typeof charts> = [],
): string[] {
  const cell = (scenario: PeerScenarioResult, name: string) => {
    const item = scenario.ratios.find((entry) => entry.name.endsWith(name))
    if (!item || scenario.skipped) return '–'
    const pair = peerPairs.find((entry) => item.name.endsWith(entry.name))
    const goal =
      pair?.required === undefined || item.met === undefined ? '' : ` ${item.met ? '≥' : '**<**'} ${pair.required}x`
    return `${ratio(item.cpuRatio)}${spread(item.cpuSpread)}${goal}`
  }
  const lines = [
    '## Peers: the same routes on bare Fastify 5, Weft, Express 5 and Hono 4',
    '',
    'Five routes written as each framework’s users write them (`src/servers/peers-*.ts`), answering the same bytes.',
    'Server CPU time per request of the peer ÷ Weft’s, the two servers of a ratio loaded at once on one core',
    '(100 connections × pipelining 10), median of rounds with the middle half in brackets; the control is the run’s noise.',
    '',
    ...image(pictures, 'charts/peers-cpu.svg'),
    '| Scenario | vs bare Fastify | vs Express 5 (goal ≥ 3x) | vs Hono (goal ≥ 1x) | control: bare Fastify vs itself |',
    '|---|---:|---:|---:|---:|',
    ...peers.map(
      (scenario) =>
        `| ${scenario.title} | ${cell(scenario, 'vs bare Fastify')} | ${cell(scenario, 'vs Express 5')} | ` +
        `${cell(scenario, 'vs Hono')} | ${cell(scenario, 'vs itself)')} |`,
    ),
  ]
  if (counts) lines.push('', ...countsMarkdown(counts, pictures))
  lines.push(
    '',
    '<details><summary>Every server’s HTTP figures (req/s and core busy while sharing the core with its pair partner)</summary>',
    '',
    '| Scenario | Server | req/s | p50 ms | p99 ms | CPU µs/req (core busy) | RSS MiB (peak) |',
    '|---|---|---:|---:|---:|---:|---:|',
  )
  for (const scenario of peers) {
    if (scenario.skipped) lines.push(`| ${scenario.title} | not run: ${scenario.skipped} | | | | | |`)
    scenario.sides.forEach((side, index) => {
      lines.push(
        `| ${index === 0 ? scenario.title : ''} | ${side.name}${side.non2xx || side.errors ? ` (${side.non2xx} non-2xx, ${side.errors} errors)` : ''} | ` +
          `${n(side.requestsPerSec)} | ${n(side.p50Ms, 2)} | ${n(side.p99Ms, 2)} | ${n(side.cpuUsPerRequest, 1)} (${n(side.cpuBusy * 100)}%) | ` +
          `${n(side.rssMiB)} (${n(side.peakRssMiB)}) |`,
      )
    })
    for (const mismatch of scenario.mismatches) lines.push(`| | answers differ: ${mismatch} | | | | | |`)
  }
  lines.push('', '</details>')
  const profiled = peers.filter((scenario) => scenario.profiles && scenario.profiles.length > 0)
  if (profiled.length > 0) {
    lines.push('', 'CPU profiles (`BENCH_PROFILE=1`), self time by owner, idle left out:', '')
    for (const scenario of profiled) {
      for (const item of scenario.profiles ?? []) {
        const owners = item.owners.map(([name, share]) => `${name} ${share.toFixed(1)} %`).join(', ')
        lines.push(`- ${scenario.title}, ${item.server}: ${owners || 'no profile'}`)
      }
    }
  }
  return lines
}

const hasRow = (counts: CountResults, scenario: string, server: string) =>
  counts.rows.some((row) => row.scenario === scenario && row.server === server)

/** Instructions and bytes per request of every counted server. */
export function countsMarkdown(counts: CountResults, pictures: ReturnType<typeof charts> = []): string[] {
  const scenarios = [...new Set(counts.rows.map((row) => row.scenario))]
  const servers = (scenario: string) =>
    scenario === productsScenario.id
      ? ['products-hand', 'api-a']
      : [
          'weft',
          ...countedPeers.map((p) => p.server),
          ...(hasRow(counts, scenario, 'weft-schema') ? ['weft-schema'] : []),
        ]
  const names: Record<string, string> = {
    weft: 'Weft',
    fastify: 'bare Fastify',
    express: 'Express 5',
    hono: 'Hono',
    'products-hand': 'hand-written Fastify',
    'api-a': 'API A',
    'weft-schema': 'Weft, route schema (bare Fastify ÷ it)',
  }
  const lines = [
    '### Instructions and bytes allocated per request',
    '',
    `Counted without sockets (each server’s \`request\` listener called with Node’s own request and response), ` +
      `${n(counts.countRequests)} requests after ${n(counts.warmupRequests)} of warm-up, one process per server: ` +
      `instructions of the main thread under ${counts.counter === 'callgrind' ? 'valgrind’s callgrind' : '(no valgrind: not counted)'}, bytes from V8’s GC trace. ` +
      'They do not move with the machine’s load; the ratio is the other server’s count ÷ Weft’s (API A’s for the product list).',
    '',
    ...image(pictures, 'charts/peers-instructions.svg'),
    '| Scenario | Server | Instructions | Ratio | Bytes allocated |',
    '|---|---|---:|---:|---:|',
  ]
  for (const scenario of scenarios) {
    const [first, ...rest] = servers(scenario)
    servers(scenario).forEach((server, index) => {
      const ratioCell =
        index === 0
          ? ''
          : scenario === productsScenario.id
            ? ratio(instructionRatio(counts, scenario, first!, server))
            : server === 'weft-schema'
              ? ratio(instructionRatio(counts, scenario, 'fastify', server))
              : ratio(instructionRatio(counts, scenario, server))
      lines.push(
        `| ${index === 0 ? (scenario === productsScenario.id ? productsScenario.title : scenario) : ''} | ${names[server] ?? server} | ` +
          `${n(countOf(counts, scenario, server, 'instructions'))} | ${ratioCell} | ${n(countOf(counts, scenario, server, 'bytes'))} |`,
      )
    })
    void rest
  }
  for (const note of counts.notes) lines.push('', `Note: ${note}`)
  return lines
}

function httpMarkdown(results: BenchResults): string[] {
  const lines = [
    '## API A and hello routes over HTTP (autocannon, loopback)',
    '',
    'Baseline and candidate alternate over rounds, each side in several server processes; the ratio is the median per-round ratio (middle half in brackets), “by CPU” the same from server CPU time per request.',
    '',
    '| Benchmark | Side | req/s | p50 ms | p99 ms | CPU µs/req (core busy) | RSS MiB (peak) | Ratio | by CPU |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const item of results.http) {
    if (item.skipped || !item.baseline || !item.candidate) {
      lines.push(`| ${item.title} | not run: ${item.skipped ?? 'no result'} | | | | | | | |`)
      continue
    }
    const load = `c=${item.connections}${item.pipelining > 1 ? ` p=${item.pipelining}` : ''}`
    for (const [side, label] of [
      [item.baseline, 'baseline'],
      [item.candidate, 'candidate'],
    ] as const) {
      const first = side === item.baseline
      lines.push(
        `| ${first ? `${item.title} (${load})` : ''} | ${label}: ${side.name}${side.non2xx || side.errors ? ` (${side.non2xx} non-2xx, ${side.errors} errors)` : ''} | ` +
          `${n(side.requestsPerSec)} | ${n(side.p50Ms, 2)} | ${n(side.p99Ms, 2)} | ${n(side.cpuUsPerRequest, 1)} (${n(side.cpuBusy * 100)}%) | ` +
          `${n(side.rssMiB)} (${n(side.peakRssMiB)}) | ${first ? '' : `${ratio(item.ratio)}${spread(item.ratioSpread)}`} | ${first ? '' : ratio(item.cpuRatio)} |`,
      )
    }
    if (item.mismatch) lines.push(`| | answers differ: ${item.mismatch} | | | | | | | |`)
  }
  return lines
}

function pgScaleMarkdown(scale: PgScaleResult, pictures: ReturnType<typeof charts>): string[] {
  const lines = [
    '## Cost as the data grows (PostgreSQL)',
    '',
    'API A’s product list (`GET /api/products?limit=20&sort=…`) and the drizzle keyset helper of @weft/pagination ' +
      '(its README example route) on tables bulk-loaded with `generate_series`, through `app.inject()`: median ms per page ' +
      `of ${scale.samples} requests, for the first page and for a page starting deeper, reached by cursor and by offset. ` +
      'The first and cursor pages are timed in turns, one request each per round, then the offset pages the same way.',
  ]
  if (scale.skipped) return [...lines, '', `Not run: ${scale.skipped}`]
  lines.push('', ...image(pictures, 'charts/pg-scale-depth.svg'), ...image(pictures, 'charts/pg-scale-size.svg'))
  lines.push(
    '| Route | Rows | First page ms | First row | Cursor ms | Offset ms | Cursor ÷ first |',
    '|---|---:|---:|---:|---:|---:|---:|',
  )
  for (const target of ['api-a', 'helper'] as const) {
    for (const rows of scale.sizes) {
      const first = timingOf(scale, target, rows, 0, 'first')
      const depths = [
        ...new Set(
          scale.timings.filter((t) => t.target === target && t.rows === rows && t.depth > 0).map((t) => t.depth),
        ),
      ]
      depths.forEach((depth, index) => {
        const cursor = timingOf(scale, target, rows, depth, 'cursor')
        lines.push(
          `| ${index === 0 ? `${target === 'api-a' ? 'API A' : 'drizzle helper'}` : ''} | ${index === 0 ? n(rows) : ''} | ${index === 0 ? n(first, 2) : ''} | ` +
            `${n(depth)} | ${n(cursor, 2)} | ${n(timingOf(scale, target, rows, depth, 'offset'), 2)} | ${ratio(cursor !== undefined && first ? cursor / first : undefined)} |`,
        )
      })
    }
  }
  if (scale.plans.length > 0) {
    lines.push(
      '',
      `Plans of the cursor queries (EXPLAIN, ${n(Math.max(...scale.sizes))} rows; the helper with \`nullFlags: true\` and its expression indexes for the nullable \`price\`):`,
      '',
      '| Route | Sort | Index scan | Plan |',
      '|---|---|---|---|',
    )
    for (const plan of scale.plans) {
      lines.push(
        `| ${plan.target === 'api-a' ? 'API A' : 'drizzle helper'} | \`${plan.sort}\` | ${plan.indexScan ? 'yes' : '**no**'} | ${plan.nodes} |`,
      )
    }
  }
  for (const note of scale.notes) lines.push('', `Note: ${note}`)
  return lines
}

const method = [
  '## Method',
  '',
  '- **Deterministic gates.** Against bare Fastify the goals are instructions per request (valgrind’s callgrind, main thread, V8 single-threaded, fixed young generation), less what V8 spends compiling while they are counted and with no major GC among them: that one-time work fell into some counts and not others (bare Fastify’s hello route counted 87,695 to 110,388 instructions in processes of the same code; now the same to ±0.1 %). CPU time on a shared two-core machine moves by ±20 %. Bytes allocated come from V8’s GC trace. `src/instructions.ts` runs `tools/count-server.mjs` on the compiled servers; without valgrind only the bytes are counted.',
  '- **Peers over HTTP.** Every server of a scenario must first answer Weft’s bytes (status, headers but `Date`/`Connection`/`Keep-Alive`, body). The two servers of a ratio are loaded at once on the servers’ core by `src/http/pipelined-load.ts` (each connection keeps ten requests in flight and drains them at the end), several processes per server, rounds in rotated order; CPU time per request from `/proc/<pid>/task/*/schedstat`. The goals against Express 5 (≥ 3x) and Hono (≥ 1x) use this CPU ratio.',
  '- **API A over HTTP.** Baseline and candidate each run in three processes, alternate over 24 rounds of 1.5 s under autocannon, on one seeded database (PGlite, and PostgreSQL when `TEST_DATABASE_URL` is set); the two answers must list the same rows and paging figures.',
  '- **Servers run as users run Weft**: `src/servers/*.ts` transpiled to JavaScript on plain `node`, against the built packages, `NODE_ENV=production`, V8’s allocation-site pretenuring and memory reducer off for every server alike.',
  '- **Cost as the data grows** (`src/pg-scale.ts`) runs on a scratch database of the PostgreSQL server in `TEST_DATABASE_URL` (else a throwaway server), loaded with `INSERT … SELECT generate_series`, vacuumed and analysed, then timed in-process; EXPLAIN checks every allowed sort’s cursor query uses an index.',
  '- The smoke form (`BENCH_SMOKE=1`) runs every step with tiny budgets (one process, one short round, 100 counted requests of one peer route and of API A’s list, 10^3 rows): it proves the code paths, its figures mean nothing.',
]

const rerun = [
  '## Rerun',
  '',
  '| Command (from the repository root) | What it does |',
  '|---|---|',
  '| `pnpm bench` | build, then every step; writes `bench/results.json`, this file and `bench/charts/` |',
  '| `BENCH_SMOKE=1 pnpm bench` | every step with tiny budgets (CI), written to `bench/.smoke/` |',
  '| `BENCH_ONLY=count,http:peers-json pnpm bench` | a subset, written to `bench/.out/`: `packages`, `micro`, `count` (`count:peers-json`, `count:products`), `http:peers` (`http:peers-<scenario>`), `http:b…`, `http:c…`, `pg-scale` |',
  '| `BENCH_PG_SCALE_SIZES=1000,100000 BENCH_ONLY=pg-scale pnpm bench` | the growth step on chosen table sizes (default 10^3, 10^5, 10^6) |',
  '| `BENCH_PROFILE=1 BENCH_ONLY=http:peers-json pnpm bench` | V8 CPU profiles of every server in `bench/profiles/`; `node --import tsx bench/src/profile-summary.ts <file>` sums one by owner |',
  '| `pnpm --filter @weft/bench report` | rewrites this file and the charts from `bench/results.json` |',
  '',
  'Budgets: `BENCH_HTTP_ROUNDS`, `BENCH_HTTP_PROCESSES`, `BENCH_PEER_ROUNDS`, `BENCH_PEER_PROCESSES`, `BENCH_COUNT_REQUESTS`, `BENCH_COUNT_WARMUP`, `BENCH_PG_SCALE_SAMPLES`.',
  'To see where a route’s cost is, `bench/tools/` holds in-process variants of the hello and JSON routes (`in-process.mjs`, `in-process-json.mjs`, over sockets `http-ab-json.mjs`), counted by `instructions.mjs`, `alloc-sites.mjs` (which function allocates) and `route-profile.mjs` (instructions function by function); each file’s header says how to run it.',
]

/** Writes `results.json`, `RESULTS.md` and the charts beside it. */
export function writeReports(results: BenchResults, jsonPath: string, markdownPath: string): void {
  mkdirSync(dirname(jsonPath), { recursive: true })
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`)
  writeMarkdown(results, markdownPath)
}

/** Writes `RESULTS.md` and its charts (under `charts/` beside it). */
export function writeMarkdown(results: BenchResults, markdownPath: string): void {
  const dir = dirname(markdownPath)
  mkdirSync(join(dir, 'charts'), { recursive: true })
  for (const chart of charts(results)) writeFileSync(join(dir, chart.file), chart.svg)
  writeFileSync(markdownPath, markdown(results))
}

// `pnpm --filter @weft/bench report [results.json]`: the report of a stored run, goals judged again.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2] ?? fileURLToPath(new URL('../results.json', import.meta.url))
  const stored = JSON.parse(readFileSync(file, 'utf8')) as BenchResults
  const { goals: _old, ...partial } = stored
  const results = { ...partial, goals: goalChecks(partial) }
  writeMarkdown(results, join(dirname(file), 'RESULTS.md'))
  process.stdout.write(`wrote ${join(dirname(file), 'RESULTS.md')} and its charts\n`)
}
