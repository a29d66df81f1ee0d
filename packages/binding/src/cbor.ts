import { decode } from 'cbor-x'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { ensureConfig } from './config.js'
import { cborTypes, keepRawBodies } from './raw-bodies.js'

async function plugin(fastify: FastifyInstance): Promise<void> {
  ensureConfig(fastify).cbor = (bytes) => decode(bytes)
  keepRawBodies(fastify, cborTypes)
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
