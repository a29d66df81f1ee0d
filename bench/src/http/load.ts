import autocannon from 'autocannon'

/** How autocannon loads a server in one measurement. */
export interface LoadOptions {
  connections: number
  pipelining: number
  /** Seconds of load. */
  seconds: number
  headers?: Record<string, string>
  /** Default GET. */
  method?: 'GET' | 'POST'
  /** Request body (sent with every request). */
  body?: string
}

/** One measurement. Latencies in milliseconds. */
export interface LoadResult {
  requestsPerSec: number
  p50Ms: number
  p99Ms: number
  meanMs: number
  requests: number
  /** Socket errors and timeouts. */
  errors: number
  /** Responses whose status was not 2xx (a broken benchmark, reported, never hidden). */
  non2xx: number
}

/** Loads `url` with autocannon in this process (the orchestrator, pinned to its own core). */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const started = process.hrtime.bigint()
  const result = await autocannon({
    url,
    connections: options.connections,
    pipelining: options.pipelining,
    duration: options.seconds,
    headers: options.headers ?? {},
    ...(options.method ? { method: options.method } : {}),
    ...(options.body === undefined ? {} : { body: options.body }),
  })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  return {
    requestsPerSec: result.requests.total / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: result.latency.average,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}
