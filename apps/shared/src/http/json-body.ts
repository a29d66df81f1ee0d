import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/** `application/json` and the `+json` types (`application/merge-patch+json`), with or without parameters. */
const jsonType = /^\s*(?:application\/json|[a-z]+\/[^;\s]+\+json)\s*(?:;|$)/i

/**
 * A route's body is JSON: content of another type is the app's 415 (`unsupported`), and a request with no content at all (no body, or
 * an empty one sent as JSON) is `{}`, so that the route schema's validation names the fields it lacks.
 */
const jsonBody = (unsupported: () => Error) =>
  function jsonBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const json = jsonType.test(request.headers['content-type'] ?? '')
    if (request.body === undefined) {
      if (json) request.body = {}
      done()
    } else {
      done(json ? undefined : unsupported())
    }
  }

/**
 * Every route with a body schema takes JSON only: its last `preValidation` hook (after the route's own, such as
 * the ownership check) refuses other content before Fastify validates the body against the schema.
 */
export function installJsonBodies(app: FastifyInstance, unsupported: () => Error): void {
  const hook = jsonBody(unsupported)
  app.addHook('onRoute', (route) => {
    if (route.schema?.body === undefined) return
    const own = route.preValidation
    route.preValidation = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook]
  })
}
