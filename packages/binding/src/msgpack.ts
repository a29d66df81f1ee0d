import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { Unpackr } from 'msgpackr'
import { ensureConfig } from './config.js'
import { checkMsgpack } from './msgpack-check.js'
import { keepRawBodies, msgpackTypes } from './raw-bodies.js'

// Maps become plain objects; no structure is shared between requests.
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: true, structuredClone: false })

async function plugin(fastify: FastifyInstance): Promise<void> {
  ensureConfig(fastify).msgpack = (bytes) => {
    // extensions that cost more than their bytes are refused before decoding (msgpack-check.ts)
    checkMsgpack(bytes)
    return unpackr.unpack(bytes)
  }
  keepRawBodies(fastify, msgpackTypes)
}

/**
 * Enables MessagePack bodies (`application/vnd.msgpack`) for `bind().msgPack()` and `body()`.
 * Needs the optional peer dependency `msgpackr`. Extensions a JSON-shaped value does not need
 * (records, shared references, bundled strings, sets, typed arrays...) are a 400; timestamps are
 * kept.
 *
 * @example
 * import { msgpackBodies } from '@weft/binding/msgpack'
 * await app.register(msgpackBodies)
 */
export const msgpackBodies: FastifyPluginAsync = fp(plugin, { fastify: '5.x', name: '@weft/binding-msgpack' })
