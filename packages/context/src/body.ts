import { Buffer } from 'node:buffer'
import { bodyBytes, bodyBytesDecoded } from '@weft/binding'
import { decodeBodySync } from './body-decode.js'
import type { CtxBase } from './ctx-base.js'
import { decodeLimits } from './decode-limits.js'

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
  return decodeBodySync(raw, header, decodeLimits(c._req, c._opts))
}
