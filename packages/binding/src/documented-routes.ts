import type { FastifyInstance, RouteOptions } from 'fastify'
import { documentedRouteSchema } from './openapi.js'

/**
 * Once the app is ready, gives the options of each route whose schema Weft validates (`track` it
 * as it is declared) the documented form of that schema: wire names, no Weft keywords.
 *
 * Fastify compiles a route's validators from its own copy of the schema before `onReady`, and
 * `request.routeOptions.schema` keeps that copy; `@fastify/swagger` keeps the route options its
 * `onRoute` hook saw and reads their `schema` when it writes the document, after `ready()`. So the
 * document shows what clients send, with or without `weftSwaggerTransform`, whichever plugin was
 * registered first, while validation and `bind()` keep the schema as written.
 */
export function documentRoutesWhenReady(fastify: FastifyInstance): (route: RouteOptions) => void {
  const routes: RouteOptions[] = []
  fastify.addHook('onReady', function documentWeftRoutes(done) {
    for (const route of routes) {
      if (route.schema !== undefined && route.schema !== null) route.schema = documentedRouteSchema(route.schema)
    }
    routes.length = 0
    done()
  })
  return (route) => {
    routes.push(route)
  }
}
