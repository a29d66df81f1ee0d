import { Buffer } from 'node:buffer'
import { errorCodes, type FastifyRequest } from 'fastify'

export type Done = (error: Error | null, body?: unknown) => void

/** A request body stream: the request itself, or the stream a `preParsing` hook put in its place. */
type BodyStream = NodeJS.ReadableStream & {
  readableFlowing?: boolean | null
  /** Set by decoding `preParsing` streams: the bytes received before decoding. */
  receivedEncodedLength?: number
}

const noBytes = Buffer.alloc(0)

/**
 * Reads a body stream to its end and hands its bytes to `onBytes` (with `argument`), as Fastify's `parseAs: 'buffer'`
 * does, with the same limit (the route's `bodyLimit`), checks and errors (`FST_ERR_CTP_BODY_TOO_LARGE`,
 * `FST_ERR_CTP_INVALID_CONTENT_LENGTH`, a stream error as a 400).
 *
 * Written here for speed: a body that arrives in one chunk (any small body) is handed on as that
 * chunk, which the stream gave us to keep (Node copies each chunk out of the socket's buffer),
 * where Fastify's reader copies every body into a new buffer and removes its three listeners at
 * the end: together about 3,500 instructions of a JSON request (bench/RESULTS.md, stop 38).
 * Fastify's reader is not exported, so there is no using it without its copy.
 */
export function readBody<T>(
  request: FastifyRequest,
  payload: BodyStream,
  done: Done,
  // a function of the module and its argument, not a closure: one object less per request
  onBytes: (request: FastifyRequest, bytes: Buffer, argument: T, done: Done) => void,
  argument: T,
): void {
  const limit = request.routeOptions.bodyLimit
  // the raw header, as it came: Fastify's `request.headers` getter costs more than the check
  const declared = request.raw.headers['content-length']
  const length = declared === undefined ? Number.NaN : Number(declared)
  if (length > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined)
    return
  }
  let first: Buffer | undefined
  let more: Buffer[] | undefined
  let received = 0
  // `done` is called once: after it, whatever the stream still emits is ignored (no listener to
  // remove: they go with the stream, and removing three cost more than the rest of the reading)
  let settled = false
  const onData = (data: Buffer | string) => {
    if (settled) return
    // a `preParsing` stream may emit text
    const chunk = typeof data === 'string' ? Buffer.from(data) : data
    received += chunk.length
    // a decoding stream's input counts too (a "zip bomb" stays within the limit both ways)
    if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      settled = true
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined)
      return
    }
    if (first === undefined) first = chunk
    else if (more === undefined) more = [first, chunk]
    else more.push(chunk)
  }
  const onEnd = (error?: Error & { statusCode?: number }) => {
    if (settled) return
    settled = true
    if (error != null) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400
      done(error, undefined)
      return
    }
    if (!Number.isNaN(length) && (payload.receivedEncodedLength || received) !== length) {
      done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH(), undefined)
      return
    }
    const bytes = more !== undefined ? Buffer.concat(more, received) : (first ?? noBytes)
    try {
      onBytes(request, bytes, argument, done)
    } catch (thrown) {
      done(thrown as Error, undefined)
    }
  }
  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', onEnd)
  // a stream paused before (by a hook) flows only when told to
  if (payload.readableFlowing !== true) payload.resume()
}
