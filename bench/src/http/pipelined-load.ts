// A pipelined HTTP/1.1 load for the peer comparison, written here rather than taken from autocannon
// for two reasons measured on this machine (bench/RESULTS.md, 2026-12-01):
// - it drains: when the time is up it stops sending and waits for every answer, so the server's
//   CPU time over a run belongs to the requests counted. autocannon stops counting with up to
//   connections × pipelining requests still in flight, which the server still works on (`sent`
//   exceeds `total` by the pipeline depth).
// - it keeps two servers loaded at once fairly: every connection keeps exactly `pipelining` requests
//   in flight, refilled as answers arrive. Two autocannon instances in one process did not: paired
//   that way, Weft's hello route came out 1.11x bare Fastify's, where alone, or with this load,
//   the same routes measure 1.00x–1.05x.
// It only has to be cheap and exact for answers of a fixed length (one route, one request, every
// answer the same bytes but the Date header, which has a fixed length), so it counts bytes instead of
// parsing HTTP, and checks the status line where each answer starts.
import { connect, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { LoadOptions, LoadResult } from './load.js'

const statusLine = Buffer.from('HTTP/1.1 2')

/** The request's bytes, as every connection sends it. */
export function requestBytes(url: URL, options: Pick<LoadOptions, 'method' | 'headers' | 'body'>): Buffer {
  const body = options.body === undefined ? undefined : Buffer.from(options.body)
  const lines = [`${options.method ?? 'GET'} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`]
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`)
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`)
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`)
  return body === undefined ? head : Buffer.concat([head, body])
}

function open(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket))
    socket.setNoDelay(true)
    socket.once('error', reject)
  })
}

/** The length of the server's answer to `request` (head and body), which must be 2xx with a Content-Length. */
export async function answerLength(url: URL, request: Buffer): Promise<number> {
  const socket = await open(url)
  try {
    return await new Promise<number>((resolve, reject) => {
      let received = Buffer.alloc(0)
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk])
        const end = received.indexOf('\r\n\r\n')
        if (end === -1) return
        const head = received.subarray(0, end).toString('latin1')
        const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1]
        if (!head.startsWith('HTTP/1.1 2') || length === undefined) {
          reject(new Error(`the load needs a 2xx answer with a Content-Length, got: ${head.split('\r\n')[0]}`))
        } else if (received.length >= end + 4 + Number(length)) resolve(end + 4 + Number(length))
      })
      socket.once('error', reject)
      socket.write(request)
    })
  } finally {
    socket.destroy()
  }
}

/** The latency in milliseconds (to 0.1 ms) at quantile `q` (0..1) of a sorted list. */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10
}

/**
 * Loads `url` for `options.seconds` with `options.connections` connections, each keeping
 * `options.pipelining` requests in flight, then waits for every answer. `length` is the length of
 * the server's answer (see {@link answerLength}); an answer that does not start with a 2xx status
 * line where one is due counts as non-2xx, and ends the run (counting is lost after it).
 */
export async function pipelinedLoad(
  url: URL,
  request: Buffer,
  length: number,
  options: Pick<LoadOptions, 'connections' | 'pipelining' | 'seconds'>,
): Promise<LoadResult> {
  const depth = options.pipelining
  // one buffer per refill size: an answer in, a request out, in one write
  const batches = Array.from({ length: depth + 1 }, (_, count) => Buffer.concat(Array(count).fill(request)))
  const sockets = await Promise.all(Array.from({ length: options.connections }, () => open(url)))
  const latencies: number[] = []
  let answered = 0
  let inFlight = 0
  let broken = 0
  let errors = 0
  let stopping = false
  let finish: () => void = () => {}
  const finished = new Promise<void>((resolve) => {
    finish = resolve
  })
  const started = performance.now()
  for (const socket of sockets) {
    // when each request in flight on this connection was sent, oldest first (a ring)
    const sentAt = new Float64Array(depth)
    let oldest = 0
    let received = 0
    socket.on('data', (chunk: Buffer) => {
      const before = received
      received += chunk.length
      for (let at = Math.ceil(before / length) * length; at < received; at += length) {
        const offset = at - before
        if (
          offset + statusLine.length <= chunk.length &&
          chunk.compare(statusLine, 0, statusLine.length, offset, offset + statusLine.length) !== 0
        )
          broken++
      }
      const count = Math.floor(received / length) - Math.floor(before / length)
      if (count === 0) return
      const now = performance.now()
      for (let i = 0; i < count; i++) {
        latencies.push(now - sentAt[oldest]!)
        oldest = (oldest + 1) % depth
      }
      answered += count
      inFlight -= count
      // the answers no longer line up: nothing after this can be counted
      if (broken > 0) return finish()
      if (!stopping) {
        for (let i = 0; i < count; i++) sentAt[(oldest + depth - count + i) % depth] = now
        socket.write(batches[count]!)
        inFlight += count
      } else if (inFlight === 0) finish()
    })
    socket.on('error', () => {
      errors++
      finish()
    })
    sentAt.fill(started)
    inFlight += depth
    socket.write(batches[depth]!)
  }
  const timer = setTimeout(() => {
    stopping = true
    if (inFlight === 0) finish()
  }, options.seconds * 1000)
  // a server that stops answering must not hang the run
  const deadline = setTimeout(
    () => {
      errors += inFlight
      finish()
    },
    (options.seconds + 30) * 1000,
  )
  await finished
  const seconds = (performance.now() - started) / 1000
  clearTimeout(timer)
  clearTimeout(deadline)
  for (const socket of sockets) socket.destroy()
  const sorted = Float64Array.from(latencies).sort()
  return {
    requestsPerSec: answered / seconds,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
    meanMs: Math.round((sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1)) * 10) / 10,
    requests: answered,
    errors,
    non2xx: broken,
  }
}
