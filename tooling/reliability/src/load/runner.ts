import autocannon from 'autocannon'
import { sleep } from '../process/exec.js'
import type { HeldMemory, ServerProcess } from '../process/server.js'

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
   * The server's RSS, recorded, not gated (see `sustainedLoad`). `afterWarmup`: after the warm-up's
   * last major GC. `end`: after the measured run's last major GC, or the median of its last two seconds
   * without one. `samples`: sampled from the measured run's start (bytes).
   */
  rss: { afterWarmup: number; end: number; growth: number; samples: number[] }
  held: { afterWarmup: HeldMemory; end: HeldMemory; growth: number }
}

/** How often the server's RSS is read while load runs. */
const sampleEveryMs = 250
/** Without a major GC, the end of the run is the median of this many last samples (two seconds). */
const endSamples = 8
/** A drop of RSS this far below its running peak shows a major GC has returned memory. */
const gcDrop = 0.05

/**
 * Warm-up load, then the measured load; what the server holds after V8's most thorough garbage
 * collection is read at the end of each (the load criterion: at the end within 10 % of after the
 * warm-up). The warm-up runs in one-second slices for at least `warmupSeconds` and until RSS has dropped
 * twice from its peak (at most three times as long): by then the heap has been through major GCs at
 * its working size, and caches have filled.
 *
 * RSS is sampled four times a second throughout and recorded. It is no measure of a leak: under this
 * load it climbs for ten seconds or more, then a major GC hands back a quarter of it (200 → 276 →
 * 172 MiB within 40 s on API B), and even read just after major GCs it moved by up to 20 % between the
 * warm-up and the end of a run with no leak. The held memory repeats within 1 MiB.
 */
export async function sustainedLoad(
  server: ServerProcess,
  options: Omit<LoadOptions, 'url' | 'durationSeconds'> & { warmupSeconds: number; durationSeconds: number },
): Promise<SustainedLoadFigures> {
  const sampler = sampleRss(server)
  const slice = () => runLoad({ ...options, url: server.url, durationSeconds: 1 })
  let requests = 0
  let seconds = 0
  while (seconds < options.warmupSeconds * 3) {
    requests += (await slice()).requests
    seconds++
    if (seconds >= options.warmupSeconds && gcDropCount(sampler.samples) >= 2) break
  }
  const heldAfterWarmup = await server.heldMemory()
  const warmupSamples = sampler.restart()
  const measured = await runLoad({ ...options, url: server.url })
  const samples = await sampler.stop()
  const heldAtEnd = await server.heldMemory()
  const afterWarmup = rssAfterLastGc(warmupSamples) ?? Math.max(...warmupSamples)
  const end = rssAfterLastGc(samples) ?? median(samples.slice(-endSamples))
  return {
    ...measured,
    warmup: { seconds, requests, rssSamples: warmupSamples },
    rss: { afterWarmup, end, growth: (end - afterWarmup) / afterWarmup, samples },
    held: { afterWarmup: heldAfterWarmup, end: heldAtEnd, growth: heldGrowth(heldAfterWarmup, heldAtEnd) },
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
 * The major GCs in RSS samples: how often RSS fell `gcDrop` below its running peak (each fall starts a
 * new cycle), and the lowest reading since the last fall (`undefined` without one). The lowest,
 * because a GC's memory is handed back over a few readings, and the next cycle climbs from there.
 */
function majorGcs(samples: readonly number[]): { drops: number; afterLast: number | undefined } {
  let drops = 0
  let peak = 0
  let afterLast: number | undefined
  for (const rss of samples) {
    if (rss < peak * (1 - gcDrop)) {
      drops++
      afterLast = rss
      peak = rss
    } else {
      peak = Math.max(peak, rss)
      if (afterLast !== undefined) afterLast = Math.min(afterLast, rss)
    }
  }
  return { drops, afterLast }
}

/** RSS after the last major GC of the samples; `undefined` when RSS never fell. */
export function rssAfterLastGc(samples: readonly number[]): number | undefined {
  return majorGcs(samples).afterLast
}

/** How often a major GC handed memory back in the samples. */
export function gcDropCount(samples: readonly number[]): number {
  return majorGcs(samples).drops
}

/** What a process holds, as the load criterion counts it: the heap in use plus external memory. */
export function heldBytes(memory: HeldMemory): number {
  return memory.heapUsed + memory.external
}

/** Growth of what a process holds from `before` to `after`. */
export function heldGrowth(before: HeldMemory, after: HeldMemory): number {
  return (heldBytes(after) - heldBytes(before)) / heldBytes(before)
}

/** The median; for an even count the upper of the two middle values (the cautious one here). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}
