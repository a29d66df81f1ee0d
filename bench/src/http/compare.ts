import type { BenchSettings } from '../settings.js'
import { median, pairedRatio, quartiles, roundRatios } from '../stats.js'
import { type LoadOptions, type LoadResult, load } from './load.js'
import { isRunning, type ServerProcess, type StartOptions, startServer, type Unavailable } from './server-process.js'

/** One side of a comparison: a server script and the request loaded against it. */
export interface Contender {
  name: string
  script: string
  /** Environment of the server process, computed when it starts. */
  env?: () => Record<string, string>
  /** Path (and query) to load, given what the server reported when ready. */
  path: string | ((info: Record<string, unknown>) => string)
  headers?: (info: Record<string, unknown>) => Record<string, string>
}

/** A comparison of a candidate to its baseline, measured in alternating rounds. */
export interface HttpComparison {
  id: string
  title: string
  baseline: Contender
  candidate: Contender
  load: Pick<LoadOptions, 'connections' | 'pipelining'>
  /** Minimum candidate/baseline req/s ratio, when the issue sets one. */
  goal?: number
  /** Checks the two servers answer the same thing before measuring (e.g. the same rows). */
  check?: (baseline: unknown, candidate: unknown) => string | undefined
}

/** One measurement of one side: autocannon's figures plus the server's CPU time over it. */
export interface Round extends LoadResult {
  /** Which of the side's server processes was measured (0-based). */
  process: number
  /** Server CPU time (user + system, every thread) per request, in microseconds. */
  cpuUsPerRequest: number
  /** Share of one core the server used while loaded (near 1: the server was the bottleneck). */
  cpuBusy: number
}

/** The figures of one side. */
export interface SideResult {
  name: string
  /** Server processes the rounds were spread over. */
  processes: number
  rounds: Round[]
  requestsPerSec: number
  cpuUsPerRequest: number
  cpuBusy: number
  p50Ms: number
  p99Ms: number
  /** Median over the side's processes of RSS after the last round. */
  rssMiB: number
  /** Highest peak RSS of any of the side's processes. */
  peakRssMiB: number
  errors: number
  non2xx: number
}

export interface ComparisonResult {
  id: string
  title: string
  connections: number
  pipelining: number
  baseline?: SideResult
  candidate?: SideResult
  /** Median over rounds of candidate req/s ÷ baseline req/s of the same round (same process pair). */
  ratio?: number
  /** First and third quartiles of the per-round req/s ratios: how much single rounds disagreed. */
  ratioSpread?: [number, number]
  /**
   * Median over rounds of baseline ÷ candidate server CPU time per request: the throughput ratio a
   * CPU-bound server would show, far less moved by other processes taking the core than req/s.
   */
  cpuRatio?: number
  goal?: number
  goalMet?: boolean
  goalMetByCpu?: boolean
  /** Why the comparison did not run (what has not landed yet), or what went wrong. */
  skipped?: string
  /** A mismatch between the two servers' answers, found before measuring. */
  mismatch?: string
}

/** Shared by every comparison of one run. */
export interface CompareContext {
  settings: BenchSettings
  /** Core for servers (the orchestrator, which runs autocannon, sits on another one). */
  serverCore: number | undefined
  profileDir: string | undefined
  log: (line: string) => void
}

/**
 * Starts each side in `httpProcesses` server processes, checks they answer 2xx (and alike), warms
 * them up, then measures them in `httpRounds` rounds. Round `r` loads process `r % httpProcesses` of
 * each side, and which side goes first alternates, so drift on a noisy machine cancels out.
 *
 * Why several processes: two processes running the same code on this machine differ by up to 5 %
 * in req/s, consistently over a whole run (memory layout, JIT decisions), which is as large as the
 * differences measured here. With one process per side, a ratio says as much about which process
 * was lucky as about the code; spread over three pairs, that luck mostly cancels out.
 */
export async function compare(comparison: HttpComparison, context: CompareContext): Promise<ComparisonResult> {
  const { settings, log } = context
  const result: ComparisonResult = {
    id: comparison.id,
    title: comparison.title,
    connections: comparison.load.connections,
    pipelining: comparison.load.pipelining,
    ...(comparison.goal === undefined ? {} : { goal: comparison.goal }),
  }
  const started: ServerProcess[] = []
  try {
    // Side by side (start-up is not measured); allSettled, so neither is left running on a failure.
    const settled = await Promise.allSettled([
      startSide(comparison.id, comparison.baseline, context, started),
      startSide(comparison.id, comparison.candidate, context, started),
    ])
    const failed = settled.find((item): item is PromiseRejectedResult => item.status === 'rejected')
    if (failed) throw failed.reason
    const sides = settled.map((item) => (item as PromiseFulfilledResult<Side>).value)
    const missing = sides.find((side): side is Unavailable => !('instances' in side))
    if (missing) {
      result.skipped = `${missing.name}: ${missing.unavailable}`
      log(`  skipped: ${result.skipped}`)
      return result
    }
    const [baseline, candidate] = sides as [RunningSide, RunningSide]
    const bodies = await Promise.all([sample(baseline), sample(candidate)])
    const mismatch = comparison.check?.(bodies[0], bodies[1])
    if (mismatch) {
      result.mismatch = mismatch
      log(`  mismatch: ${mismatch}`)
    }
    const options = (instance: Instance, seconds: number): LoadOptions => ({
      ...comparison.load,
      seconds,
      headers: instance.headers,
    })
    if (settings.httpWarmupSeconds > 0) {
      for (const side of [baseline, candidate]) {
        for (const instance of side.instances) await load(instance.url, options(instance, settings.httpWarmupSeconds))
      }
    }
    for (let round = 0; round < settings.httpRounds; round++) {
      const order = round % 2 === 0 ? [baseline, candidate] : [candidate, baseline]
      for (const side of order) {
        const index = round % side.instances.length
        const instance = side.instances[index] as Instance
        const cpuBefore = instance.server.cpuSeconds()
        const started = process.hrtime.bigint()
        const measured = await load(instance.url, options(instance, settings.httpSeconds))
        const wall = Number(process.hrtime.bigint() - started) / 1e9
        const cpu = instance.server.cpuSeconds() - cpuBefore
        side.rounds.push({
          ...measured,
          process: index,
          cpuUsPerRequest: (cpu / measured.requests) * 1e6,
          cpuBusy: cpu / wall,
        })
        log(
          `  round ${round + 1} ${side.name} #${index + 1}: ${Math.round(measured.requestsPerSec)} req/s p50 ${measured.p50Ms} ms p99 ${measured.p99Ms} ms, ` +
            `${Math.round((cpu / measured.requests) * 1e6)} µs CPU/request, CPU busy ${Math.round((cpu / wall) * 100)}%`,
        )
      }
    }
    result.baseline = summarise(baseline)
    result.candidate = summarise(candidate)
    const ratios = roundRatios(
      candidate.rounds.map((item) => item.requestsPerSec),
      baseline.rounds.map((item) => item.requestsPerSec),
    )
    result.ratio = median(ratios)
    result.ratioSpread = quartiles(ratios)
    result.cpuRatio = pairedRatio(
      baseline.rounds.map((item) => item.cpuUsPerRequest),
      candidate.rounds.map((item) => item.cpuUsPerRequest),
    )
    if (comparison.goal !== undefined && !settings.smoke) {
      result.goalMet = result.ratio >= comparison.goal
      result.goalMetByCpu = result.cpuRatio >= comparison.goal
    }
    return result
  } catch (error) {
    result.skipped = `failed: ${(error as Error).message.split('\n').slice(0, 6).join(' | ')}`
    log(`  ${result.skipped}`)
    return result
  } finally {
    await Promise.all(started.map((server) => server.stop()))
  }
}

/** One server process of a side. */
export interface Instance {
  server: ServerProcess
  url: string
  headers: Record<string, string>
}

export interface RunningSide {
  name: string
  instances: Instance[]
  rounds: Round[]
}
export type Side = RunningSide | Unavailable

export async function startSide(
  id: string,
  contender: Contender,
  context: CompareContext,
  started: ServerProcess[],
): Promise<Side> {
  const count = Math.max(1, context.settings.httpProcesses)
  const instances: Instance[] = []
  for (let index = 0; index < count; index++) {
    const options: StartOptions = {
      core: context.serverCore,
      profileDir: context.profileDir && `${context.profileDir}/${id}`,
    }
    if (contender.env) options.env = contender.env()
    const name = count === 1 ? contender.name : `${contender.name} #${index + 1}`
    const server = await startServer(name, contender.script, options)
    if (!isRunning(server)) return server
    started.push(server)
    const path = typeof contender.path === 'function' ? contender.path(server.info) : contender.path
    instances.push({ server, url: `${server.origin}${path}`, headers: contender.headers?.(server.info) ?? {} })
  }
  return { name: contender.name, instances, rounds: [] }
}

/**
 * One request to every process of a side before measuring: a non-2xx answer means the benchmark
 * itself is broken. Returns the first process's body (the processes run the same code and data).
 */
async function sample(side: RunningSide): Promise<unknown> {
  const bodies = await Promise.all(side.instances.map((instance) => sampleOne(side.name, instance)))
  return bodies[0]
}

async function sampleOne(name: string, instance: Instance): Promise<unknown> {
  const response = await fetch(instance.url, { headers: instance.headers })
  const text = await response.text()
  if (!response.ok) throw new Error(`${name} answered ${response.status}: ${text.slice(0, 300)}`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

export function summarise(side: RunningSide): SideResult {
  const memory = side.instances.map((instance) => instance.server.memory())
  return {
    name: side.name,
    processes: side.instances.length,
    rounds: side.rounds,
    requestsPerSec: median(side.rounds.map((item) => item.requestsPerSec)),
    cpuUsPerRequest: median(side.rounds.map((item) => item.cpuUsPerRequest)),
    cpuBusy: median(side.rounds.map((item) => item.cpuBusy)),
    p50Ms: median(side.rounds.map((item) => item.p50Ms)),
    p99Ms: median(side.rounds.map((item) => item.p99Ms)),
    rssMiB: median(memory.map((item) => item.rssMiB)),
    peakRssMiB: Math.max(...memory.map((item) => item.peakRssMiB)),
    errors: side.rounds.reduce((sum, item) => sum + item.errors, 0),
    non2xx: side.rounds.reduce((sum, item) => sum + item.non2xx, 0),
  }
}
