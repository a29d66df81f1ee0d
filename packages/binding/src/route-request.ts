import type { FastifyRequest } from 'fastify'
import type { Static, TSchema } from 'typebox'

/** The parts of a route `schema` that Weft (or Fastify) binds before the handler. */
export type RouteSchemaParts = {
  querystring?: TSchema
  params?: TSchema
  headers?: TSchema
  body?: TSchema
}

type Part<S, K extends keyof RouteSchemaParts> = S extends { [P in K]: infer T extends TSchema } ? Static<T> : unknown

/** A request whose bound parts have the types of the route schema `S`. */
export type RouteRequest<S extends RouteSchemaParts> = Omit<FastifyRequest, 'query' | 'params' | 'headers' | 'body'> & {
  readonly query: Part<S, 'querystring'>
  readonly params: Part<S, 'params'>
  readonly headers: FastifyRequest['headers'] & Part<S, 'headers'>
  readonly body: Part<S, 'body'>
}

/**
 * The request of a route, typed by the route's `schema` (the same object): for `handle()` chains
 * and hooks, where Fastify's type provider does not reach. It is the request itself, with types;
 * nothing is read or copied.
 *
 * @example
 * const schema = { querystring: Search, params: Params }
 * app.get('/shops/:shop_id', { schema }, handle((c) => c.json(routeRequest(schema, c).query.dryRun)))
 */
export function routeRequest<S extends RouteSchemaParts>(
  _schema: S,
  from: FastifyRequest | { request(): FastifyRequest },
): RouteRequest<S> {
  const request = 'raw' in from ? from : from.request()
  return request as unknown as RouteRequest<S>
}
