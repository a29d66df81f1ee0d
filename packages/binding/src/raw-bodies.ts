import type { FastifyInstance } from 'fastify'

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
    if (!fastify.hasContentTypeParser(type)) {
      fastify.addContentTypeParser(type, { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
    }
  }
}
