import type { FastifyInstance } from 'fastify'

// Fastify looks for the parser of a body without Content-Type under the name `/` (the type and
// subtype of an empty header), then falls back to the catch-all parser (`'*'`), and answers 415
// before any handler when there is none. This pattern matches that name only: a body without a
// Content-Type is kept as bytes, so that `all()` binds the other sources and `custom(name)` reaches
// its binder, while a body of an unknown type still gets Fastify's 415.
export const untypedBody = /^\/$/

/**
 * Whether `fastify` has a catch-all parser. Fastify has no public way to ask
 * (`hasContentTypeParser('*')` is always false), so this reads its parser table; a Fastify that
 * stores it otherwise is taken as having none.
 */
export function hasCatchAll(fastify: FastifyInstance): boolean {
  for (let holder: object | null = fastify; holder !== null; holder = Object.getPrototypeOf(holder)) {
    for (const symbol of Object.getOwnPropertySymbols(holder)) {
      if (symbol.description !== 'fastify.contentTypeParser') continue
      const table = (holder as Record<symbol, { customParsers?: Map<string, unknown> }>)[symbol]
      return table?.customParsers?.has('') === true
    }
  }
  return false
}
