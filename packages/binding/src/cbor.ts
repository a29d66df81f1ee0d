import { Decoder } from 'cbor-x'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { checkCbor } from './cbor-check.js'
import { ensureConfig } from './config.js'
import { cborTypes, keepRawBodies } from './raw-bodies.js'

// Maps become plain objects and nothing is shared between requests (no records, no packed values).
const decoder = new Decoder({ useRecords: false, mapsAsObjects: true, pack: false, structuredClone: false })

async function plugin(fastify: FastifyInstance): Promise<void> {
  ensureConfig(fastify).cbor = (bytes) => {
    // tags that cost more than their bytes are refused before decoding (cbor-check.ts)
    checkCbor(bytes)
    return decoder.decode(bytes)
  }
  keepRawBodies(fastify, cborTypes)
}

/**
 * Enables CBOR bodies (`application/cbor`) for `bind().cbor()` and `body()`.
 * Needs the optional peer dependency `cbor-x`. Tags a JSON-shaped value does not need (shared
 * references, packed values, records, sets, typed arrays...) and bignums over 128 bytes are a 400.
 *
 * @example
 * import { cborBodies } from '@weft/binding/cbor'
 * await app.register(cborBodies)
 */
export const cborBodies: FastifyPluginAsync = fp(plugin, { fastify: '5.x', name: '@weft/binding-cbor' })
