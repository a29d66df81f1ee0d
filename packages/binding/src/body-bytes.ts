import type { FastifyBodyParser, FastifyInstance, FastifyRequest } from 'fastify'
import { configOf } from './config.js'
import { UnsupportedBodyEncodingError } from './errors.js'
import { ownKeptTypes, recordKeptType } from './kept-types.js'
import { type Done, readBody } from './read-body.js'
import { keepBytes, keptBytes } from './request-state.js'

// Binding's body parsers keep the bytes they parsed on the request, for `c.body()` of
// @weft/context: the parser holds them anyway, so keeping them costs one reference, where
// listening to the request stream for them cost more than the rest of a JSON route did.

// Requests whose body a `preParsing` stream had decoded before a binding parser read it (few: a
// set, not one more decorator that every request would pay for).
const decodedUpstream = new WeakSet<FastifyRequest>()

/** The bytes a binding parser kept for this request, if one parsed its body. */
export function bodyBytes(request: FastifyRequest): Buffer | undefined {
  return keptBytes(request)
}

/**
 * Whether the kept bytes of `request` were decoded by a `preParsing` stream (`@fastify/compress`'s
 * request decompression): they are the body as decoded, and its Content-Encoding is undone already.
 */
export function bodyBytesDecoded(request: FastifyRequest): boolean {
  return decodedUpstream.has(request)
}

/** Passes the bytes on as `request.body`, for `bind()` to decode with the schema at hand. */
const asBytes: FastifyBodyParser<Buffer> = (_request, body, done) => done(null, body)

/**
 * Adds a body parser for `type` that keeps the bytes it reads (`parse` gets them after; by default
 * they become `request.body`), and records `type` as kept in `fastify`'s context, so that the two
 * never disagree.
 */
export function addKeepingParser(
  fastify: FastifyInstance,
  type: string | RegExp,
  parse: FastifyBodyParser<Buffer> = asBytes,
): void {
  // the body is read here, not with `parseAs: 'buffer'` (read-body.ts says why)
  fastify.addContentTypeParser(type, (request, payload, done) => {
    // a stream put in place by a `preParsing` hook that decodes (`@fastify/compress`) says so with
    // `receivedEncodedLength`, as Fastify asks of such streams: its bytes are decoded already
    const decoded = (payload as { receivedEncodedLength?: number }).receivedEncodedLength !== undefined
    readBody(request, payload, done, decoded ? keepDecodedThenParse : keepThenParse, parse)
  })
  recordKeptType(ownKeptTypes(fastify), type)
}

/** Keeps the bytes on the request, then parses them (decoded first if the body is coded). */
function keepThenParse(request: FastifyRequest, body: Buffer, parse: FastifyBodyParser<Buffer>, done: Done): void {
  keepBytes(request, body)
  // the raw headers: Fastify's `request.headers` getter costs more than the check
  const coding = request.raw.headers['content-encoding']
  if (coding === undefined || isIdentity(coding)) parse(request, body, done)
  else decodeThenParse(request, body, coding, parse, done)
}

/** Keeps the bytes a `preParsing` stream decoded, then parses them: a coding is undone only once. */
function keepDecodedThenParse(
  request: FastifyRequest,
  body: Buffer,
  parse: FastifyBodyParser<Buffer>,
  done: Done,
): void {
  keepBytes(request, body)
  decodedUpstream.add(request)
  parse(request, body, done)
}

/** `identity` or nothing: no coding to undo. */
function isIdentity(coding: string): boolean {
  return coding.split(',').every((entry) => {
    const name = entry.trim().toLowerCase()
    return name === '' || name === 'identity'
  })
}

/**
 * A coded body is decoded by the installed decoder, then parsed: the parsers read text, and the
 * coded bytes would bind garbage (JSON: a misleading 400; a form: no fields at all). The bytes kept
 * for `c.bodyRaw()` stay the ones received.
 */
function decodeThenParse(
  request: FastifyRequest,
  bytes: Buffer,
  coding: string,
  parse: FastifyBodyParser<Buffer>,
  done: Done,
): void {
  const decode = configOf(request).bodyDecoder
  if (decode === undefined) {
    done(new UnsupportedBodyEncodingError(coding), undefined)
    return
  }
  decode(request, bytes, coding).then(
    (decoded) => parse(request, decoded, done),
    (error: Error) => done(error, undefined),
  )
}
