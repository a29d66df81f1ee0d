import type { FastifyRequest } from 'fastify'
import type { DecodeLimits } from './body-decode.js'
import type { ResolvedOptions } from './options.js'

/** Fastify's default `bodyLimit`, used when a request carries no route options. */
const FASTIFY_BODY_LIMIT = 1024 * 1024

/** The route's `bodyLimit`. */
export const routeBodyLimit = (request: FastifyRequest): number => request.routeOptions?.bodyLimit ?? FASTIFY_BODY_LIMIT

/**
 * The decode limits of a request: the `bodyDecodeLimit` option of the weftContext registration of
 * its route's scope (`options`), else the route's `bodyLimit`.
 */
export function decodeLimits(request: FastifyRequest, options: ResolvedOptions): DecodeLimits {
  return {
    maxBytes: options.bodyDecodeLimit ?? routeBodyLimit(request),
    maxCodings: options.maxContentCodings,
  }
}
