import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { ApiErrors } from './errors.js'

/** `application/json` and the `+json` types (`application/merge-patch+json`), parameters aside. */
function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false
  const type = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? ''
  return type === 'application/json' || type.endsWith('+json')
}

/**
 * A route's body is JSON: content of another type is a 415, and a request with no content at all (no body, or
 * an empty one sent as JSON) is `{}`, so that the route schema's validation names the fields it lacks.
 */
function jsonBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const json = isJson(request.headers['content-type'])
  if (request.body === undefined) {
    if (json) request.body = {}
    done()
  } else {
    done(json ? undefined : new ApiErrors.UnsupportedMediaType())
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
