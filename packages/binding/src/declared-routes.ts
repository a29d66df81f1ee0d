import type { FastifyInstance } from 'fastify'

/**
 * Whether the app has routes already: declared before a plugin of ours loaded (a registration
 * not awaited), so that its `onRoute` hooks missed them.
 */
export function hasRoutes(fastify: FastifyInstance): boolean {
  return fastify.printRoutes() !== '(empty tree)'
}
