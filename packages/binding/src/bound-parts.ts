import type { FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { BindSource } from './errors.js'
import { addBoundBits, boundBits } from './request-state.js'

// The schemas Weft compiled as route schema parts. `bind().query(Schema)` in the handler of a
// route whose `schema.querystring` is that same Schema finds the query already bound (property
// names, converted values), and returns it instead of reading it again as if it held wire names.
// Noted once per route at boot: marking each bound value (a WeakMap entry per request) cost more
// than Ajv's whole validation of the same query.
const routeSchemas = new WeakSet<TSchema>()

// The parts of a request its route's validation has bound so far, one bit each (request-state.ts
// keeps them): a hook that runs before Fastify's validation phase (`onRequest`, `preValidation`)
// still sees the raw part, which `bind()` must read, not return.
const partBits: Record<string, number> = { querystring: 1, params: 2, body: 4, headers: 8 }

/** Notes that the route's validation bound `part` of `request` (Fastify puts it in place next). */
export function markBound(request: FastifyRequest, part: string): void {
  addBoundBits(request, partBits[part] ?? 0)
}

/** Notes that `schema` is validated and bound by Weft as a route schema part. */
export function noteRouteSchema(schema: TSchema): void {
  routeSchemas.add(schema)
}

const partOf: Record<string, { part: 'querystring' | 'params' | 'body'; property: 'query' | 'params' | 'body' }> = {
  [BindSource.Query]: { part: 'querystring', property: 'query' },
  [BindSource.URI]: { part: 'params', property: 'params' },
  [BindSource.Body]: { part: 'body', property: 'body' },
}

/**
 * The request part `source` reads when the route's own schema already bound it with `schema`
 * (validation passed); `undefined` otherwise, and in a hook that runs before the validation.
 */
export function boundPart(request: FastifyRequest, source: string, schema: TSchema): unknown {
  // the bits first: a request nothing bound (any route without Weft route schemas) stops at one load
  const bits = boundBits(request)
  if (bits === 0 || !routeSchemas.has(schema)) return undefined
  const where = partOf[source]
  if (where === undefined || request.validationError !== undefined) return undefined
  if ((bits & (partBits[where.part] ?? 0)) === 0) return undefined
  const routeSchema = request.routeOptions.schema as Record<string, unknown> | undefined
  return routeSchema?.[where.part] === schema ? request[where.property] : undefined
}
