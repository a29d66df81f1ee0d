import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify'
import { documentedRouteSchema } from './openapi.js'

/**
 * Once the app is ready, gives the options of each route whose schema Weft validates (passed to
 * the function this returns as the route is declared) the documented form of that schema: wire
 * names, no Weft keywords.
 *
 * Fastify keeps its own reference to the schema, compiles the validators from it before `onReady`,
 * and `request.routeOptions.schema` reads it; `@fastify/swagger` keeps the route options its
 * `onRoute` hook saw and reads their `schema` when it writes the document, after `ready()`. So the
 * document shows what clients send, with or without `weftSwaggerTransform`, whichever plugin was
 * registered first, while validation and `bind()` keep the schema as written.
 */
export function documentRoutesWhenReady(fastify: FastifyInstance): (route: RouteOptions) => void {
  const routes: RouteOptions[] = []
  fastify.addHook('onReady', function documentWeftRoutes(done) {
    // only routes with a schema are passed in (route-schemas.ts)
    for (const route of routes) route.schema = documentedRouteSchema(route.schema as FastifySchema)
    routes.length = 0
    done()
  })
  return (route) => {
    routes.push(route)
  }
}
