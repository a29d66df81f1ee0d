import { Transform } from 'node:stream'
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify'
import { type DecodeLimits, decodeBody, decodeBodySync } from './body-decode.js'
import type { CtxBase } from './ctx-base.js'
import type { ResolvedOptions } from './options.js'
import { kDecodedBody, kRawBody, kReply } from './symbols.js'

/** Fastify's default `bodyLimit`, used when a request carries no route options. */
const FASTIFY_BODY_LIMIT = 1024 * 1024

type Decoded = { body: Buffer; error?: undefined } | { body?: undefined; error: Error }
type Carrier = FastifyRequest & { [kRawBody]?: Buffer[]; [kReply]?: FastifyReply; [kDecodedBody]?: Decoded }

/**
 * `preParsing` hook of the plugin: remembers the reply (so `request.ctx` can be created lazily)
 * and, for requests with a non-multipart body, keeps the raw bytes for `c.body()`.
 * Multipart bodies are left alone: `@weft/binding` reads that stream itself, when asked to.
 */
export function capturePayloadWith(options: ResolvedOptions) {
  return function capturePayload(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: RequestPayload,
    done: (err: Error | null, payload?: RequestPayload) => void,
  ): void {
    const carrier = request as Carrier
    carrier[kReply] = reply
    const headers = request.headers
    const length = headers['content-length']
    if ((length === undefined || length === '0') && headers['transfer-encoding'] === undefined) {
      done(null, payload)
      return
    }
    const contentType = headers['content-type']
    if (contentType !== undefined && contentType.slice(0, 10).toLowerCase() === 'multipart/') {
      done(null, payload)
      return
    }
    const encoding = headers['content-encoding']
    if (encoding !== undefined) {
      done(null, decodingTee(carrier, payload, encoding, options))
      return
    }
    // Listening to the payload is enough to keep its chunks (references, no copy). A Transform
    // piped in between, as for coded bodies, costs more than all the rest Weft does for a JSON
    // route. Pausing first keeps the listener from starting the flow: Fastify's body reader
    // resumes the stream once its own listener is attached, so no chunk passes before it.
    const chunks: Buffer[] = []
    carrier[kRawBody] = chunks
    payload.pause()
    payload.on('data', (chunk: Buffer) => chunks.push(chunk))
    done(null, payload)
  }
}

/**
 * For a coded body: passes the bytes on unchanged, keeping them, and decodes them once they are
 * complete, before Fastify sees the end, so the handler's synchronous `body()` finds the result
 * ready and the event loop never inflates.
 */
function decodingTee(carrier: Carrier, payload: RequestPayload, encoding: string, options: ResolvedOptions) {
  const chunks: Buffer[] = []
  carrier[kRawBody] = chunks
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk)
      callback(null, chunk)
    },
    flush(callback) {
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
      decodeBody(raw, encoding, decodeLimits(carrier, options))
        .then((decoded) => {
          carrier[kDecodedBody] = { body: decoded }
        })
        .catch((error: Error) => {
          carrier[kDecodedBody] = { error }
        })
        .finally(() => callback())
    },
  })
  payload.on('error', (error) => tee.destroy(error as Error))
  payload.pipe(tee)
  return tee as unknown as RequestPayload
}

/** The raw request body as received (empty when there was none or it was multipart). */
export function bodyRaw(c: CtxBase): Buffer {
  const chunks = (c._req as Carrier)[kRawBody]
  let raw: Buffer
  if (chunks !== undefined) raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
  else if (Buffer.isBuffer(c._req.body)) raw = c._req.body
  else if (typeof c._req.body === 'string') raw = Buffer.from(c._req.body)
  else raw = Buffer.alloc(0)
  return c._opts.immutable ? Buffer.from(raw) : raw
}

/** The decode limits of a request: the `bodyDecodeLimit` option, else the route's `bodyLimit`. */
function decodeLimits(request: FastifyRequest, options: ResolvedOptions): DecodeLimits {
  return {
    maxBytes: options.bodyDecodeLimit ?? request.routeOptions?.bodyLimit ?? FASTIFY_BODY_LIMIT,
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
