import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { ApiError, messages } from './errors.js'

/** `application/json` and the `+json` types (`application/merge-patch+json`), with or without parameters. */
const jsonType = /^\s*(?:application\/json|[a-z]+\/[^;\s]+\+json)\s*(?:;|$)/i

/**
 * A route's body is JSON: content of another type is a 415, and a request with no content at all (no body, or
 * an empty one sent as JSON) is `{}`, so that the route schema's validation names the fields it lacks.
 */
function jsonBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const json = jsonType.test(request.headers['content-type'] ?? '')
  if (request.body === undefined) {
    if (json) request.body = {}
    done()
  } else {
    done(json ? undefined : new ApiError('UNSUPPORTED_MEDIA_TYPE', messages.notJsonMediaType))
  }
}

/**
 * Every route with a body schema takes JSON only: its last `preValidation` hook (after the route's own, such as
 * the ownership check) refuses other content before Fastify validates the body against the schema.
 */
export function installJsonBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.schema?.body === undefined) return
    const own = route.preValidation
    route.preValidation = own === undefined ? [jsonBody] : [...(Array.isArray(own) ? own : [own]), jsonBody]
  })
}
