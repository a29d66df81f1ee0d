import { failure } from '@weft/api-shared/http/envelope'
import { routeMethods } from '@weft/context'
import type { FastifyInstance } from 'fastify'
import { messages } from './errors.js'

/**
 * Answers the requests no route takes: 405 with `Allow` when the path has routes for other methods only, else
 * 404 — also when a route of this very method handed the request on (a file missing under `/docs/static/*`) —
 * both in the error envelope. Installed before the routes, whose methods it records.
 */
export function installNotFound(app: FastifyInstance): void {
  const methodsOf = routeMethods(app)
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url
    const allowed = methodsOf(request.url)
    if (allowed.length === 0 || allowed.includes(request.method))
      return reply.code(404).send(failure('NOT_FOUND', messages.routeNotFound(request.method, path)))
    const message = messages.methodNotAllowed(request.method, path, allowed)
    return reply.code(405).header('allow', allowed.join(', ')).send(failure('METHOD_NOT_ALLOWED', message))
  })
}
