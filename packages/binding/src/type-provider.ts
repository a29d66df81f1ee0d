import type { FastifyTypeProvider } from 'fastify'
import type { Static, TSchema } from 'typebox'

/**
 * Fastify's type provider for TypeBox schemas, Weft's tags included: `request.query`,
 * `request.params`, `request.headers` and `request.body` are the `Static<>` of the route's schema
 * parts, the values Weft binds them to (property names, converted types, defaults filled).
 *
 * @example
 * const app = Fastify().withTypeProvider<WeftTypeProvider>()
 * await app.register(weftBinding)
 * app.get('/search', { schema: { querystring: Search } }, (request) => request.query.dryRun) // boolean
 */
export interface WeftTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? Static<this['schema']> : unknown
  serializer: this['schema'] extends TSchema ? Static<this['schema']> : unknown
}
