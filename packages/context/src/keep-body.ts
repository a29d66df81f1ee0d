import type { Buffer } from 'node:buffer'
import type { IncomingHttpHeaders } from 'node:http'
import { type BodyDecoder, keepsBodyBytes } from '@weft/binding'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { decodeBody } from './body-decode.js'
import { ctx, heldCtx, optionsOf, rememberReply } from './ctx-slot.js'
import { decodeLimits, routeBodyLimit } from './decode-limits.js'
import { ReceivedBody } from './received-body.js'

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
  const contentType = headers['content-type']
  if (keepsBodyBytes(request, contentType)) return
  const encoding = headers['content-encoding']
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
    received.decoding = decodeBody(received.bytes(), encoding, decodeLimits(request, optionsOf(request.server))).then(
      (decoded) => {
        received.decoded = { body: decoded }
      },
      (error: Error) => {
        received.decoded = { error }
      },
    )
  })
}

/**
 * The decoder @weft/binding's parsers call for a coded body they read (JSON, forms, XML...), before
 * they parse it: decoded off the event loop with `c.body()`'s limits, and kept on the `Ctx` as the
 * hook keeps other bodies, so that `c.body()` returns the decoded bytes and `c.bodyRaw()` the
 * bytes as received.
 */
export const decodeKeptBody: BodyDecoder = async (request, bytes, coding) => {
  const decoded = await decodeBody(bytes, coding, decodeLimits(request, optionsOf(request.server)))
  const c = heldCtx(request)
  if (c !== undefined) {
    const received = new ReceivedBody()
    received.chunks.push(bytes)
    received.decoded = { body: decoded }
    c._received = received
  }
  return decoded
}
