import { bodyBytes, keepsBodyBytes } from '@weft/binding'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type DecodeLimits, decodeBody, decodeBodySync } from './body-decode.js'
import type { CtxBase } from './ctx-base.js'
import type { ResolvedOptions } from './options.js'
import { kDecodedBody, kDecoding, kRawBody, kReply } from './symbols.js'

/** Fastify's default `bodyLimit`, used when a request carries no route options. */
const FASTIFY_BODY_LIMIT = 1024 * 1024

const routeBodyLimit = (request: FastifyRequest): number => request.routeOptions?.bodyLimit ?? FASTIFY_BODY_LIMIT

type Decoded = { body: Buffer; error?: undefined } | { body?: undefined; error: Error }
type Carrier = FastifyRequest & {
  [kRawBody]?: Buffer[]
  [kReply]?: FastifyReply
  [kDecodedBody]?: Decoded
  [kDecoding]?: Promise<void>
}

/**
 * `onRequest` hook of the plugin: remembers the reply (so `request.ctx` can be created lazily)
 * and sees to it that `c.body()` will have the body's bytes, at the least cost:
 * - a body that one of @weft/binding's parsers reads (JSON, forms, XML, MessagePack, CBOR, custom
 *   binders) is kept by that parser, which holds the bytes anyway: nothing to do here;
 * - a coded body (Content-Encoding) is kept as received, and decoded without blocking the event
 *   loop as soon as it is complete; `handle()` waits for that before its chain runs;
 * - any other body is kept by listening to the request stream.
 * Multipart bodies are left alone: `@weft/binding` reads that stream itself, when asked to.
 * An `onRequest` hook, not `preParsing`: Fastify's preParsing runner allocates three closures and
 * a bound function per request, its onRequest runner fewer (a gain within the benchmarks' noise,
 * bench/RESULTS.md), and `request.ctx` then works in later onRequest hooks too.
 */
export function prepareRequestWith(options: ResolvedOptions) {
  return function prepareRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const carrier = request as Carrier
    carrier[kReply] = reply
    const headers = request.headers
    const length = headers['content-length']
    const hasBody = (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined
    if (hasBody) keepBody(carrier, headers, options)
    done()
  }
}

/** Sees to it that `c.body()` will have the bytes of a body, unless the parser reading it keeps them. */
function keepBody(carrier: Carrier, headers: FastifyRequest['headers'], options: ResolvedOptions): void {
  const encoding = headers['content-encoding']
  // the common case first: a binding parser (JSON, forms...) keeps the bytes it reads
  if (encoding === undefined && keepsBodyBytes(carrier)) return
  const contentType = headers['content-type']
  if (contentType !== undefined && contentType.slice(0, 10).toLowerCase() === 'multipart/') return
  const chunks = keepChunks(carrier)
  if (encoding !== undefined) decodeWhenComplete(carrier, chunks, encoding, options)
}

/**
 * Keeps the chunks of the request stream (references, no copy), up to the route's `bodyLimit`
 * (beyond it Fastify answers 413 and the chunks are dropped). Pausing first keeps the listener
 * from starting the flow: Fastify's body reader resumes the stream once its own listener is
 * attached, so no chunk passes before it.
 */
function keepChunks(carrier: Carrier): Buffer[] {
  const chunks: Buffer[] = []
  carrier[kRawBody] = chunks
  const limit = routeBodyLimit(carrier)
  const payload = carrier.raw
  let size = 0
  const onData = (chunk: Buffer) => {
    size += chunk.length
    if (size <= limit) chunks.push(chunk)
    else {
      payload.removeListener('data', onData)
      chunks.length = 0
    }
  }
  payload.pause()
  payload.on('data', onData)
  return chunks
}

/**
 * Decodes a coded body once it is complete. The stream's end reaches this listener before
 * Fastify's (added later), so the decoding is under way, and `handle()` can wait for it, before
 * the handler runs; the synchronous `body()` then finds the result ready.
 */
function decodeWhenComplete(carrier: Carrier, chunks: Buffer[], encoding: string, options: ResolvedOptions): void {
  carrier.raw.once('end', () => {
    const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
    carrier[kDecoding] = decodeBody(raw, encoding, decodeLimits(carrier, options)).then(
      (decoded) => {
        carrier[kDecodedBody] = { body: decoded }
      },
      (error: Error) => {
        carrier[kDecodedBody] = { error }
      },
    )
  })
}

/** The decoding of the request's coded body, when there is one under way or done. */
export function decoding(request: FastifyRequest): Promise<void> | undefined {
  return (request as Carrier)[kDecoding]
}

/** The bytes of the body as received: kept by the stream listener, or a binding parser, or the parsed body itself. */
function receivedBytes(request: FastifyRequest): Buffer {
  const chunks = (request as Carrier)[kRawBody]
  if (chunks !== undefined) return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
  const kept = bodyBytes(request)
  if (kept !== undefined) return kept
  const parsed = request.body
  if (Buffer.isBuffer(parsed)) return parsed
  if (typeof parsed === 'string') return Buffer.from(parsed)
  return Buffer.alloc(0)
}

/** The raw request body as received (empty when there was none or it was multipart). */
export function bodyRaw(c: CtxBase): Buffer {
  const raw = receivedBytes(c._req)
  return c._opts.immutable ? Buffer.from(raw) : raw
}

/** The decode limits of a request: the `bodyDecodeLimit` option, else the route's `bodyLimit`. */
function decodeLimits(request: FastifyRequest, options: ResolvedOptions): DecodeLimits {
  return {
    maxBytes: options.bodyDecodeLimit ?? routeBodyLimit(request),
    maxCodings: options.maxContentCodings,
  }
}

/**
 * The request body decoded per Content-Encoding (codings undone last to first), at most the
 * decode limit (413 beyond), at most `maxContentCodings` stacked codings (415 beyond).
 */
export function body(c: CtxBase): Buffer {
  const decoded = (c._req as Carrier)[kDecodedBody]
  if (decoded !== undefined) {
    if (decoded.error !== undefined) throw decoded.error
    return c._opts.immutable ? Buffer.from(decoded.body) : decoded.body
  }
  const raw = bodyRaw(c)
  const header = c._req.headers['content-encoding']
  if (header === undefined || raw.length === 0) return raw
  return decodeBodySync(raw, header, decodeLimits(c._req, c._opts))
}
