import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ComparisonResult } from './http/compare.js'
import type { PeerScenarioResult } from './http/peers.js'
import type { MachineInfo } from './machine.js'
import type { MicroSuiteResult } from './micro/rounds.js'
import { goalRatio, type PackageBenchResult, packageExtraGoals } from './packages.js'
import type { BenchSettings } from './settings.js'
import { round } from './stats.js'

/** One speed goal of the issue and how this run measured against it. */
export interface GoalCheck {
  name: string
  required: number
  measured: number | undefined
  /** HTTP only: the same ratio from server CPU time per request (see `ComparisonResult.cpuRatio`). */
  measuredCpu?: number | undefined
  /** Undefined in the smoke form or when the benchmark did not run. */
  met: boolean | undefined
  /** HTTP only: whether the CPU-time ratio meets the goal. */
  metByCpu?: boolean | undefined
  /** Peers: the goal is judged by CPU time (`measured` is the CPU-time ratio, `measuredRequests`
   *  the req/s one), with the middle half of the per-round ratios. */
  by?: 'cpu'
  measuredRequests?: number | undefined
  spread?: [number, number] | undefined
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
  /** The peer comparison (src/http/peers.ts); absent in results written before it existed. */
  peers?: PeerScenarioResult[]
}

/** The issue's goals, from every part of the run. */
export function goalChecks(results: Omit<BenchResults, 'goals'>): GoalCheck[] {
  const checks: GoalCheck[] = []
  for (const item of results.packages) {
    if (item.goal === undefined) continue
    checks.push({
      name: `@weft/${item.package}: ${item.goalWhat}`,
      required: item.goal,
      measured: goalRatio(item),
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
        met: results.smoke || measured === undefined ? undefined : measured >= extra.goal,
      })
    }
  }
  for (const suite of results.micro) {
    if (suite.goal === undefined) continue
    checks.push({ name: suite.title, required: suite.goal, measured: suite.tasks.at(-1)?.ratio, met: suite.goalMet })
  }
  for (const comparison of results.http) {
    if (comparison.goal === undefined) continue
    checks.push({
      name: comparison.title,
      required: comparison.goal,
      measured: comparison.ratio,
      measuredCpu: comparison.cpuRatio,
      met: comparison.goalMet,
      metByCpu: comparison.goalMetByCpu,
    })
  }
  for (const scenario of results.peers ?? []) {
    for (const item of scenario.ratios) {
      if (item.required === undefined) continue
      checks.push({
        name: item.name,
        required: item.required,
        measured: scenario.skipped ? undefined : item.cpuRatio,
        met: item.met,
        by: 'cpu',
        measuredRequests: scenario.skipped ? undefined : item.ratio,
        spread: item.cpuSpread,
      })
    }
  }
  return checks
}

const n = (value: number | undefined, decimals = 0) =>
  value === undefined || !Number.isFinite(value) ? '–' : round(value, decimals).toLocaleString('en-US')
const ratio = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : `${value.toFixed(2)}x`
const spread = (range: [number, number] | undefined) =>
  range === undefined || !range.every(Number.isFinite) ? '' : ` (${range[0].toFixed(2)}–${range[1].toFixed(2)})`
const met = (value: boolean | undefined) => (value === undefined ? '–' : value ? 'met' : '**missed**')

/** The markdown tables of a run. */
export function markdown(results: BenchResults): string {
  const { machine } = results
  const lines: string[] = []
  lines.push(
    `Measured ${machine.date} on ${machine.cpuModel} (${machine.cpus} cores, ${machine.memoryGiB} GiB), Node ${machine.node}` +
      `${results.smoke ? ', **smoke form: figures are not meaningful**' : ''}; ` +
      `servers ${machine.pinning ? 'pinned to core 0, autocannon to core 1' : 'not pinned (taskset or a second core missing)'}; ` +
      `${results.settings.httpRounds} HTTP rounds of ${results.settings.httpSeconds} s over ${results.settings.httpProcesses} server process${results.settings.httpProcesses === 1 ? '' : 'es'} per side, medians; total ${Math.round(results.seconds)} s.`,
    '',
    '### Goals',
    '',
    '| Goal | Required | Measured (req/s) | | By server CPU time per request | |',
    '|---|---:|---:|---|---:|---|',
    ...results.goals.map((goal) =>
      goal.by === 'cpu'
        ? `| ${goal.name} | ≥ ${goal.required}x | ${ratio(goal.measuredRequests)} | | ${ratio(goal.measured)}${spread(goal.spread)} | ${met(goal.met)} |`
        : `| ${goal.name} | ≥ ${goal.required}x | ${ratio(goal.measured)} | ${met(goal.met)} | ` +
          `${goal.measuredCpu === undefined ? ' | ' : `${ratio(goal.measuredCpu)} | ${met(goal.metByCpu)}`} |`,
    ),
    '',
    '### HTTP (autocannon, loopback)',
    '',
    '| Benchmark | Side | req/s | p50 ms | p99 ms | CPU µs/req (core busy) | RSS MiB (peak) | Ratio (middle half of rounds) | by CPU time | Goal |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
  )
  for (const item of results.http) {
    if (item.skipped || !item.baseline || !item.candidate) {
      lines.push(`| ${item.title} | not run: ${item.skipped ?? 'no result'} | | | | | | | | |`)
      continue
    }
    const load = `c=${item.connections}${item.pipelining > 1 ? ` p=${item.pipelining}` : ''}`
    for (const [side, label] of [
      [item.baseline, 'baseline'],
      [item.candidate, 'candidate'],
    ] as const) {
      const first = side === item.baseline
      const goal =
        first || item.goal === undefined ? '' : `≥ ${item.goal}x ${met(item.goalMet)} (CPU: ${met(item.goalMetByCpu)})`
      lines.push(
        `| ${first ? `${item.title} (${load})` : ''} | ${label}: ${side.name}${side.non2xx || side.errors ? ` (${side.non2xx} non-2xx, ${side.errors} errors)` : ''} | ` +
          `${n(side.requestsPerSec)} | ${n(side.p50Ms, 2)} | ${n(side.p99Ms, 2)} | ${n(side.cpuUsPerRequest, 1)} (${n(side.cpuBusy * 100)}%) | ` +
          `${n(side.rssMiB)} (${n(side.peakRssMiB)}) | ${first ? '' : `${ratio(item.ratio)}${spread(item.ratioSpread)}`} | ${first ? '' : ratio(item.cpuRatio)} | ${goal} |`,
      )
    }
    if (item.mismatch) lines.push(`| | answers differ: ${item.mismatch} | | | | | | | | |`)
  }
  if (results.peers && results.peers.length > 0) lines.push('', ...peersMarkdown(results.peers))
  lines.push(
    '',
    '### Micro-benchmarks written here (tinybench, median of rounds)',
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
  lines.push(
    '',
    "### Packages' own micro-benchmarks (`pnpm --filter @weft/<pkg> bench`)",
    '',
    '| Package | Status | Ratios reported | Goal |',
    '|---|---|---|---|',
  )
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
  return lines.join('\n')
}

/** The peer comparison: Weft's CPU-time ratio to each peer per scenario, then every server's figures. */
export function peersMarkdown(peers: PeerScenarioResult[]): string[] {
  const cell = (scenario: PeerScenarioResult, name: string) => {
    const item = scenario.ratios.find((entry) => entry.name.endsWith(name))
    if (!item || scenario.skipped) return '–'
    const goal = item.required === undefined ? '' : ` ${item.met === undefined ? '' : item.met ? '≥' : '**<**'}`
    return `${ratio(item.cpuRatio)}${spread(item.cpuSpread)}${goal && item.met !== undefined ? `${goal} ${item.required}x` : ''}`
  }
  const lines = [
    '### Peers: the same routes on bare Fastify 5, Weft, Express 5 and Hono 4 (100 connections × pipelining 10)',
    '',
    "Peer CPU µs per request ÷ Weft's, the two servers of each ratio loaded at once on one core: above 1.00x Weft costs less. Median of rounds (middle half of the rounds in brackets); req/s and core busy are a server's while it shared the core with its pair partner.",
    '',
    '| Scenario | Weft vs bare Fastify (≥ 0.95x) | Weft vs Express 5 (≥ 3x) | Weft vs Hono (≥ 1x) | control: bare Fastify vs itself |',
    '|---|---:|---:|---:|---:|',
    ...peers.map(
      (scenario) =>
        `| ${scenario.title} | ${cell(scenario, 'vs bare Fastify')} | ${cell(scenario, 'vs Express 5')} | ` +
        `${cell(scenario, 'vs Hono')} | ${cell(scenario, 'vs itself)')} |`,
    ),
    '',
    '| Scenario | Server | req/s | p50 ms | p99 ms | CPU µs/req (core busy) | RSS MiB (peak) |',
    '|---|---|---:|---:|---:|---:|---:|',
  ]
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

const start = '<!-- results:start (generated by `pnpm bench`; edit outside these markers) -->'
const end = '<!-- results:end -->'

/** Writes `results.json` and the generated part of `RESULTS.md`, keeping what is written outside the markers. */
export function writeReports(results: BenchResults, jsonPath: string, markdownPath: string): void {
  mkdirSync(dirname(jsonPath), { recursive: true })
  writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`)
  const generated = `${start}\n\n${markdown(results)}\n\n${end}`
  const current = existsSync(markdownPath)
    ? readFileSync(markdownPath, 'utf8')
    : `# Weft benchmark results\n\n${start}\n${end}\n`
  const from = current.indexOf(start)
  const to = current.indexOf(end)
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + generated + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${generated}\n`
  writeFileSync(markdownPath, next)
}
