// `pnpm bench`: every package's micro-benchmarks, the in-repo micro-benchmarks, instructions and
// bytes per request, the HTTP comparisons, then the cost as the data grows on PostgreSQL; prints the
// tables and writes bench/results.json, bench/RESULTS.md and bench/charts/ (the smoke form writes
// them under bench/.smoke/ instead, leaving the committed figures alone).
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { CompareContext, ComparisonResult } from './http/compare.js'
import { comparePeers, type PeerScenarioResult, selectedPeerScenarios } from './http/peers.js'
import { httpScenarios } from './http/scenarios.js'
import { type CountResults, countRequests } from './instructions.js'
import { machineInfo } from './machine.js'
import type { MicroSuiteResult } from './micro/rounds.js'
import { benchmarkedPackages, type PackageBenchResult, runPackageBench } from './packages.js'
import { type PgScaleResult, runPgScale } from './pg-scale.js'
import { type BenchResults, goalChecks, markdown, writeReports } from './report.js'
import { benchSettings, selected } from './settings.js'

const benchDir = fileURLToPath(new URL('../', import.meta.url))
const root = fileURLToPath(new URL('../../', import.meta.url))
const settings = benchSettings()
const machine = machineInfo()
const startedAt = Date.now()
/** Prints a line; section headers (`== …`) carry the seconds elapsed since the start. */
const log = (line: string) => {
  const header = /^(\n*)== /.exec(line)
  const stamped = header
    ? `${header[1]}[${Math.round((Date.now() - startedAt) / 1000)} s] ${line.slice(header[1]!.length)}`
    : line
  process.stdout.write(`${stamped}\n`)
}
// Only a complete full run replaces the committed figures; partial (BENCH_ONLY) runs go to .out/.
const outDir = settings.smoke ? `${benchDir}.smoke/` : settings.only.length > 0 ? `${benchDir}.out/` : benchDir

log(
  `weft bench${settings.smoke ? ' (smoke form)' : ''}: Node ${machine.node}, ${machine.cpuModel}, ${machine.cpus} cores`,
)

const packages: PackageBenchResult[] = []
if (selected(settings, 'packages')) {
  for (const pkg of benchmarkedPackages(root)) {
    if (!selected(settings, `packages:${pkg}`)) continue
    log(`\n== @weft/${pkg}: pnpm --filter @weft/${pkg} bench`)
    const result = await runPackageBench(root, pkg, {
      smoke: settings.smoke,
      // @weft/binding's took 248 s on a slow day of this machine (2026-11-28)
      timeoutMs: settings.smoke ? 90_000 : 600_000,
      log,
    })
    log(`  ${result.status}${result.note ? `: ${result.note}` : ''} (${result.seconds.toFixed(1)} s)`)
    packages.push(result)
  }
}

let micro: MicroSuiteResult[] = []
if (selected(settings, 'micro')) {
  log('\n== micro-benchmarks of bench/src/micro')
  micro = await runMicro()
}

let counts: CountResults | undefined
if (selected(settings, 'count')) {
  log('\n== instructions and bytes allocated per request (valgrind callgrind, V8 GC trace)')
  counts = await countRequests(settings, log)
}

const http: ComparisonResult[] = []
let peers: PeerScenarioResult[] = []
const scenarios = httpScenarios(settings)
const peerScenarios = selectedPeerScenarios(settings)
if (scenarios.length > 0 || peerScenarios.length > 0) {
  const context: CompareContext = {
    settings,
    serverCore: machine.pinning ? 0 : undefined,
    profileDir: settings.profile ? `${benchDir}profiles` : undefined,
    log,
  }
  // autocannon runs in this process: keep it (every thread of it) off the servers' core.
  if (machine.pinning) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' })
  for (const scenario of scenarios) http.push(...(await scenario.run(context)))
  if (peerScenarios.length > 0) {
    log('\n== peers: bare Fastify, Weft, Express 5, Hono and bare Fastify again (control)')
    peers = await comparePeers(peerScenarios, context)
  }
}

let pgScale: PgScaleResult | undefined
if (selected(settings, 'pg-scale')) {
  log('\n== cost as the data grows, on PostgreSQL')
  pgScale = await runPgScale(settings, log)
}

const partial: Omit<BenchResults, 'goals'> = {
  smoke: settings.smoke,
  machine,
  settings,
  seconds: (Date.now() - startedAt) / 1000,
  packages,
  micro,
  http,
  peers,
  ...(counts ? { counts } : {}),
  ...(pgScale ? { pgScale } : {}),
}
const results: BenchResults = { ...partial, goals: goalChecks(partial) }
writeReports(results, `${outDir}results.json`, `${outDir}RESULTS.md`)
log(`\n${markdown(results)}\nwrote ${outDir}results.json, ${outDir}RESULTS.md and ${outDir}charts/`)

const failures = [
  ...packages.filter((item) => item.status === 'failed').map((item) => `@weft/${item.package}: ${item.note}`),
  ...micro.filter((item) => item.skipped).map((item) => `${item.id}: ${item.skipped}`),
  ...http.filter((item) => item.skipped?.startsWith('failed')).map((item) => `${item.id}: ${item.skipped}`),
  // A baseline that no longer answers like its candidate fails the full run; the smoke form (CI) only
  // warns, so an app's wording change cannot block unrelated work (the row says "answers differ").
  ...http.filter((item) => item.mismatch && !settings.smoke).map((item) => `${item.id}: ${item.mismatch}`),
  ...http
    .filter((item) => (item.baseline?.non2xx ?? 0) + (item.candidate?.non2xx ?? 0) > 0)
    .map((item) => `${item.id}: non-2xx answers under load`),
  ...peers.filter((item) => item.skipped).map((item) => `${item.id}: ${item.skipped}`),
  ...(settings.smoke ? [] : peers.flatMap((item) => item.mismatches.map((m) => `${item.id}: ${m}`))),
  ...peers
    .filter((item) => item.sides.some((side) => side.non2xx + side.errors > 0))
    .map((item) => `${item.id}: non-2xx answers or socket errors under load`),
  ...(counts?.notes.filter((note) => !note.startsWith('valgrind not found') || !settings.smoke) ?? []).map(
    (note) => `instructions: ${note}`,
  ),
  ...(pgScale?.skipped ? [`pg-scale: ${pgScale.skipped}`] : []),
]
if (failures.length > 0) {
  log(`\nbenchmarks that could not run:\n${failures.map((item) => `- ${item}`).join('\n')}`)
  process.exitCode = 1
}

/** Runs src/micro/run.ts in its own process and reads what it wrote. */
async function runMicro(): Promise<MicroSuiteResult[]> {
  mkdirSync(`${benchDir}.out`, { recursive: true })
  const out = `${benchDir}.out/micro.json`
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@weft/source', '--import', 'tsx', fileURLToPath(new URL('./micro/run.ts', import.meta.url))],
      { env: { ...process.env, BENCH_MICRO_OUT: out }, stdio: ['ignore', 'inherit', 'inherit'] },
    )
    child.once('close', resolve)
  })
  if (code !== 0) return [{ id: 'micro', title: 'bench/src/micro', baseline: '', tasks: [], skipped: `exit ${code}` }]
  return JSON.parse(readFileSync(out, 'utf8')) as MicroSuiteResult[]
}
