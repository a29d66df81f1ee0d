import { Transform } from 'node:stream'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify'
import type { CtxBase } from './ctx-base.js'
import { BadEncodingError, UnsupportedEncodingError } from './errors.js'
import { kRawBody, kReply } from './symbols.js'

type Carrier = FastifyRequest & { [kRawBody]?: Buffer[]; [kReply]?: FastifyReply }

/**
 * `preParsing` hook of the plugin: remembers the reply (so `request.ctx` can be created lazily)
 * and, for requests with a non-multipart body, keeps a copy of the raw bytes for `c.body()`.
 * Multipart bodies are left alone: `@weft/binding` reads that stream itself, when asked to.
 */
export function capturePayload(
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
  const chunks: Buffer[] = []
  carrier[kRawBody] = chunks
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk)
      callback(null, chunk)
    },
  })
  payload.on('error', (error) => tee.destroy(error as Error))
  payload.pipe(tee)
  done(null, tee as unknown as RequestPayload)
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

function decode(data: Buffer, coding: string): Buffer {
  try {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(data)
      case 'deflate':
        return inflateSync(data)
      case 'br':
        return brotliDecompressSync(data)
      case 'identity':
      case '':
        return data
    }
  } catch {
    throw new BadEncodingError(coding)
  }
  throw new UnsupportedEncodingError(coding.slice(0, 32))
}

/** The request body decoded per Content-Encoding (codings undone last to first). */
export function body(c: CtxBase): Buffer {
  const raw = bodyRaw(c)
  const header = c._req.headers['content-encoding']
  if (header === undefined || raw.length === 0) return raw
  const codings = header.toLowerCase().split(',')
  let data = raw
  for (let i = codings.length - 1; i >= 0; i--) data = decode(data, (codings[i] as string).trim())
  return data
}
