import autocannon from 'autocannon'
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

/** Figures of a load run against a server process, with its memory before and after. */
export interface SustainedLoadFigures extends LoadFigures {
  /** The warm-up: how long it ran and the RSS after each of its one-second slices (bytes). */
  warmup: { seconds: number; requests: number; rssSamples: number[] }
  /** RSS in bytes right after the warm-up (the baseline) and at the end of the measured run. */
  rss: { afterWarmup: number; end: number; growth: number }
}

/** RSS may change this much over the last warm-up slice for the process to count as warmed up. */
const steadyRss = 0.02

/**
 * Warm-up load, RSS sample, the measured load, RSS sample: the shape of the load criterion
 * (RSS at the end within 10 % of RSS after warm-up). The warm-up runs in one-second slices for at least
 * `warmupSeconds` and until RSS changes by less than 2 % over each of two slices in a row (at most three
 * times as long):
 * "after warm-up" means once the heap has grown to its working size.
 */
export async function sustainedLoad(
  server: ServerProcess,
  options: Omit<LoadOptions, 'url' | 'durationSeconds'> & { warmupSeconds: number; durationSeconds: number },
): Promise<SustainedLoadFigures> {
  const rssSamples: number[] = [await server.rss()]
  let requests = 0
  for (let slice = 1; slice <= options.warmupSeconds * 3; slice++) {
    requests += (await runLoad({ ...options, url: server.url, durationSeconds: 1 })).requests
    rssSamples.push(await server.rss())
    // Steady means two slices in a row: one quiet second can fall between two growth spurts.
    if (slice >= options.warmupSeconds && rssSamples.length >= 3) {
      const [twoBefore, before, after] = rssSamples.slice(-3) as [number, number, number]
      if (Math.abs(after - before) / before < steadyRss && Math.abs(before - twoBefore) / twoBefore < steadyRss) break
    }
  }
  const afterWarmup = rssSamples.at(-1) as number
  const measured = await runLoad({ ...options, url: server.url })
  const end = await server.rss()
  return {
    ...measured,
    warmup: { seconds: rssSamples.length - 1, requests, rssSamples },
    rss: { afterWarmup, end, growth: (end - afterWarmup) / afterWarmup },
  }
}
