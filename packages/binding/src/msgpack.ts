import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { unpack } from 'msgpackr'
import { ensureConfig } from './config.js'
import { keepRawBodies, msgpackTypes } from './raw-bodies.js'

async function plugin(fastify: FastifyInstance): Promise<void> {
  ensureConfig(fastify).msgpack = (bytes) => unpack(bytes)
  keepRawBodies(fastify, msgpackTypes)
}

/**
 * Enables MessagePack bodies (`application/vnd.msgpack`) for `bind().msgPack()` and `body()`.
 * Needs the optional peer dependency `msgpackr`.
 *
 * @example
 * import { msgpackBodies } from '@weft/binding/msgpack'
 * await app.register(msgpackBodies)
 */
export const msgpackBodies: FastifyPluginAsync = fp(plugin, { fastify: '5.x', name: '@weft/binding-msgpack' })
