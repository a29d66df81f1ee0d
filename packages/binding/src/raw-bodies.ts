import type { FastifyInstance, FastifyRequest } from 'fastify'
import { addKeepingParser } from './body-bytes.js'
import { isKeptType, keptTypesOf } from './kept-types.js'

/** Content types of XML bodies (`+xml` suffixes included). */
export const xmlTypes: (string | RegExp)[] = ['application/xml', 'text/xml', /^[a-z]+\/[^;\s]+\+xml(;|$)/i]

/** Content types of MessagePack bodies. */
export const msgpackTypes: (string | RegExp)[] = [
  'application/vnd.msgpack',
  'application/msgpack',
  'application/x-msgpack',
]

/** Content types of CBOR bodies (`+cbor` suffixes included). */
export const cborTypes: (string | RegExp)[] = ['application/cbor', /^[a-z]+\/[^;\s]+\+cbor(;|$)/i]

/**
 * Accepts bodies of these types as bytes (`request.body` a Buffer) for `bind()` to decode with the
 * schema at hand. A type that already has a parser keeps it.
 */
export function keepRawBodies(fastify: FastifyInstance, types: readonly (string | RegExp)[]): void {
  for (const type of types) {
    if (!fastify.hasContentTypeParser(type)) addKeepingParser(fastify, type)
  }
}

/**
 * Whether the body of `request`, by its Content-Type, goes to a parser of binding that keeps its
 * bytes (so @weft/context need not copy them). Asked before the body is read, it goes by the
 * parsers binding added to the request's context: an app that replaced one of them in that context
 * afterwards gets, from `c.body()`, what its own parser keeps. `contentType`: the request's, unless
 * the caller has read it already.
 */
export function keepsBodyBytes(
  request: FastifyRequest,
  contentType: string | undefined = request.headers['content-type'],
): boolean {
  return isKeptType(keptTypesOf(request.server), contentType)
}
