import { routeMethods } from '@weft/context'
import type { FastifyInstance } from 'fastify'
import { messages, methodNotAllowed, notFound } from './errors.js'

/**
 * Answers the requests no route takes: 405 with `Allow` when the path has routes for other methods only, else
 * 404 — also when a route of this very method handed the request on (a file missing under `/docs/static/*`).
 * Installed before the routes, whose methods it records; the error handler renders both answers.
 */
export function installNotFound(app: FastifyInstance): void {
  const methodsOf = routeMethods(app)
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0] ?? request.url
    const allowed = methodsOf(request.url)
    if (allowed.length > 0 && !allowed.includes(request.method)) throw methodNotAllowed(request.method, path, allowed)
    throw notFound(messages.routeNotFound(request.method, path))
  })
}
