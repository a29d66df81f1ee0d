import type { RouteOptions } from 'fastify'
import type { TSchema } from 'typebox'
import { bindingSources } from './binding-source.js'
import { BindingSetupError } from './errors.js'

const PARTS = ['params', 'querystring', 'headers', 'body'] as const

/**
 * Checks the Weft tags of a route's schemas as the route is added, so that a mistake in them
 * (an unknown `bindingSource` name) fails the boot, naming the route and the schema, instead of
 * reaching a client.
 */
export function checkRouteSchemas(route: RouteOptions): void {
  const schema = route.schema
  if (schema === undefined) return
  for (const part of PARTS) {
    const partSchema = schema[part]
    if (partSchema === null || typeof partSchema !== 'object') continue
    try {
      bindingSources(partSchema as TSchema)
    } catch (error) {
      if (!(error instanceof BindingSetupError)) throw error
      const method = Array.isArray(route.method) ? route.method.join(',') : route.method
      throw new BindingSetupError(error.code, `${method} ${route.url} schema.${part}: ${error.message}`)
    }
  }
}
