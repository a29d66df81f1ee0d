import { decode } from 'cbor-x'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { ensureConfig } from './config.js'

const types = ['application/cbor', /^[a-z]+\/[^;\s]+\+cbor(;|$)/i]

async function plugin(fastify: FastifyInstance): Promise<void> {
  ensureConfig(fastify).cbor = (bytes) => decode(bytes)
  for (const type of types) {
    if (!fastify.hasContentTypeParser(type)) {
      fastify.addContentTypeParser(type, { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
    }
  }
}

/**
 * Enables CBOR bodies (`application/cbor`) for `bind().cbor()` and `body()`.
 * Needs the optional peer dependency `cbor-x`.
 *
 * @example
 * import { cborBodies } from '@weft/binding/cbor'
 * await app.register(cborBodies)
 */
export const cborBodies: FastifyPluginAsync = fp(plugin, { fastify: '5.x', name: '@weft/binding-cbor' })
