import { Buffer } from 'node:buffer'
import type { IncomingHttpHeaders } from 'node:http'
import { type BodyDecoder, bodyBytes, bodyBytesDecoded, keepsBodyBytes } from '@weft/binding'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type DecodeLimits, decodeBody, decodeBodySync } from './body-decode.js'
import type { CtxBase } from './ctx-base.js'
import { ctx, heldCtx, optionsOf, rememberReply } from './ctx-slot.js'

/** Fastify's default `bodyLimit`, used when a request carries no route options. */
const FASTIFY_BODY_LIMIT = 1024 * 1024

const routeBodyLimit = (request: FastifyRequest): number => request.routeOptions?.bodyLimit ?? FASTIFY_BODY_LIMIT

type Decoded = { body: Buffer; error?: undefined } | { body?: undefined; error: Error }

/**
 * What the hook keeps of a body that no binding parser keeps (`c._received`): its chunks as they
 * arrive, and for a coded body its decoding, under way or done.
 */
export class ReceivedBody {
  readonly chunks: Buffer[] = []
  decoding: Promise<void> | undefined = undefined
  decoded: Decoded | undefined = undefined

  /** The chunks as one buffer (one chunk is the buffer itself: no copy). */
  bytes(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks)
  }
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
export function prepareRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  rememberReply(request, reply)
  // the raw headers: Fastify's `request.headers` getter costs more than the rest of the check
  const headers = request.raw.headers
  const length = headers['content-length']
  const hasBody = (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined
  if (hasBody) keepBody(request, reply, headers)
  done()
}

/** Sees to it that `c.body()` will have the bytes of a body, unless the parser reading it keeps them. */
function keepBody(request: FastifyRequest, reply: FastifyReply, headers: IncomingHttpHeaders): void {
  // the common case first: a binding parser (JSON, forms...) keeps the bytes it reads, and
  // decodes a coded body with decodeKeptBody() before it parses it
  if (keepsBodyBytes(request)) return
  const encoding = headers['content-encoding']
  const contentType = headers['content-type']
  if (contentType !== undefined && contentType.slice(0, 10).toLowerCase() === 'multipart/') return
  // a body kept here is kept on its Ctx, made now
  const received = new ReceivedBody()
  ctx(request, reply)._received = received
  keepChunks(request, received.chunks)
  if (encoding !== undefined) decodeWhenComplete(request, received, encoding)
}

/**
 * Keeps the chunks of the request stream (references, no copy), up to the route's `bodyLimit`
 * (beyond it Fastify answers 413 and the chunks are dropped). Pausing first keeps the listener
 * from starting the flow: Fastify's body reader resumes the stream once its own listener is
 * attached, so no chunk passes before it.
 */
function keepChunks(request: FastifyRequest, chunks: Buffer[]): void {
  const limit = routeBodyLimit(request)
  const payload = request.raw
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
}

/**
 * Decodes a coded body once it is complete. The stream's end reaches this listener before
 * Fastify's (added later), so the decoding is under way, and `handle()` can wait for it, before
 * the handler runs; the synchronous `body()` then finds the result ready.
 */
function decodeWhenComplete(request: FastifyRequest, received: ReceivedBody, encoding: string): void {
  request.raw.once('end', () => {
    received.decoding = decodeBody(received.bytes(), encoding, decodeLimits(request)).then(
      (decoded) => {
        received.decoded = { body: decoded }
      },
      (error: Error) => {
        received.decoded = { error }
      },
    )
  })
}

/** The bytes of the body as received: kept by the stream listener, or a binding parser, or the parsed body itself. */
function receivedBytes(c: CtxBase): Buffer {
  if (c._received !== undefined) return c._received.bytes()
  const request = c._req
  const kept = bodyBytes(request)
  if (kept !== undefined) return kept
  const parsed = request.body
  if (Buffer.isBuffer(parsed)) return parsed
  if (typeof parsed === 'string') return Buffer.from(parsed)
  return Buffer.alloc(0)
}

/**
 * The raw request body as received (empty when there was none or it was multipart); a body that a
 * `preParsing` stream decoded (`@fastify/compress`) before a binding parser read it, as decoded.
 */
export function bodyRaw(c: CtxBase): Buffer {
  const raw = receivedBytes(c)
  return c._opts.immutable ? Buffer.from(raw) : raw
}

/**
 * The decoder @weft/binding's parsers call for a coded body they read (JSON, forms, XML...), before
 * they parse it: decoded off the event loop with `c.body()`'s limits, and kept on the `Ctx` as the
 * hook keeps other bodies, so that `c.body()` returns the decoded bytes and `c.bodyRaw()` the
 * bytes as received.
 */
export const decodeKeptBody: BodyDecoder = async (request, bytes, coding) => {
  const decoded = await decodeBody(bytes, coding, decodeLimits(request))
  const c = heldCtx(request)
  if (c !== undefined) {
    const received = new ReceivedBody()
    received.chunks.push(bytes)
    received.decoded = { body: decoded }
    c._received = received
  }
  return decoded
}

/**
 * The decode limits of a request: the `bodyDecodeLimit` option of the weftContext registration of
 * its route's scope, else the route's `bodyLimit`.
 */
function decodeLimits(request: FastifyRequest): DecodeLimits {
  const options = optionsOf(request.server)
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
  const decoded = c._received?.decoded
  if (decoded !== undefined) {
    if (decoded.error !== undefined) throw decoded.error
    return c._opts.immutable ? Buffer.from(decoded.body) : decoded.body
  }
  const raw = bodyRaw(c)
  const header = c._req.headers['content-encoding']
  // a `preParsing` stream (@fastify/compress) decoded it before the parser kept it
  if (header === undefined || raw.length === 0 || bodyBytesDecoded(c._req)) return raw
  return decodeBodySync(raw, header, decodeLimits(c._req))
}
