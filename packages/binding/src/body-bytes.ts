import type { FastifyBodyParser, FastifyInstance, FastifyRequest } from 'fastify'
import { mediaTypeOfHeader } from './content-type.js'

// Binding's body parsers keep the bytes they parsed on the request, for `c.body()` of
// @weft/context: the parser holds them anyway, so keeping them costs one reference, where
// listening to the request stream for them cost more than the rest of a JSON route did.
const kBodyBytes = Symbol('weft.binding.bodyBytes')

type BytesCarrier = FastifyRequest & { [kBodyBytes]?: Buffer }

/** The media types whose parser keeps the body's bytes: exact names and `+suffix` patterns. */
export type KeptTypes = { names: Set<string>; patterns: RegExp[] }

/** Declares the request decorator, so that every request has the same shape. */
export function decorateBodyBytes(fastify: FastifyInstance): void {
  if (!fastify.hasRequestDecorator(kBodyBytes)) fastify.decorateRequest(kBodyBytes, undefined)
}

/** The bytes a binding parser kept for this request, if one parsed its body. */
export function bodyBytes(request: FastifyRequest): Buffer | undefined {
  return (request as BytesCarrier)[kBodyBytes]
}

/** Passes the bytes on as `request.body`, for `bind()` to decode with the schema at hand. */
const asBytes: FastifyBodyParser<Buffer> = (_request, body, done) => done(null, body)

/**
 * Adds a body parser for `type` that keeps the bytes it reads (`parse` gets them after; by default
 * they become `request.body`), and records `type` in `kept`, so that the two never disagree.
 */
export function addKeepingParser(
  fastify: FastifyInstance,
  kept: KeptTypes,
  type: string | RegExp,
  parse: FastifyBodyParser<Buffer> = asBytes,
): void {
  fastify.addContentTypeParser(type, { parseAs: 'buffer' }, (request, body, done) => {
    ;(request as BytesCarrier)[kBodyBytes] = body as Buffer
    parse(request, body as Buffer, done)
  })
  if (typeof type === 'string') kept.names.add(type.toLowerCase())
  // the plugin may be registered again in the same context: one entry per pattern
  else if (!kept.patterns.some((known) => known.source === type.source && known.flags === type.flags)) {
    kept.patterns.push(type)
  }
}

/** Whether a Content-Type header names one of the kept media types. */
export function isKeptType(kept: KeptTypes, header: string | undefined): boolean {
  if (header === undefined) return false
  if (kept.names.has(header)) return true
  const mediaType = mediaTypeOfHeader(header)
  if (kept.names.has(mediaType)) return true
  for (const pattern of kept.patterns) if (pattern.test(mediaType)) return true
  return false
}
