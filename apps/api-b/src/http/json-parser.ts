import type { FastifyInstance } from 'fastify'

/**
 * Fastify's JSON parser (prototype poisoning refused), except that an empty body is no body: clients and
 * HTTP libraries send `Content-Type: application/json` on every request, bodiless ones included (a DELETE,
 * a logout). Fastify alone answers those 400 "body cannot be empty"; here the route decides, as it would
 * for a request without the header: one that needs fields names them (400 VALIDATION_FAILED), one that
 * needs none answers as usual.
 */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (body === '') done(null, undefined)
    else parse(request, body, done)
  })
}
