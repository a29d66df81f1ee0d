import type { FastifyInstance } from 'fastify'

/** How often a request whose body is still arriving is looked at again. */
const BODY_POLL_MS = 250

/** The error a request that outlived the handler timeout is answered with (503, like Fastify's own). */
export function handlerTimedOut(ms: number): Error {
  return Object.assign(new Error(`request handling took longer than ${ms} ms`), {
    code: 'FST_ERR_HANDLER_TIMEOUT',
    statusCode: 503,
  })
}

/**
 * Answers 503 a request still being handled `ms` after it arrived: the bound for a database that accepts
 * connections and never answers. Written by hand instead of Fastify's `handlerTimeout`, whose clock also runs
 * while the body arrives, so a client trickling its body got that 503 (and kept its socket) long before
 * `requestTimeout` could answer 408 and close it. Here the clock waits for the body: its reception is bounded by
 * `requestTimeout` alone, and the hooks and handler that follow get `ms` of their own.
 */
export function installHandlerTimeout(app: FastifyInstance, ms: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    let timer: NodeJS.Timeout
    const bodyArriving = () => request.raw.complete === false
    const expire = () => {
      if (reply.sent || reply.raw.headersSent) return
      if (bodyArriving()) {
        timer = setTimeout(waitForBody, BODY_POLL_MS)
        return
      }
      reply.send(handlerTimedOut(ms))
    }
    const waitForBody = () => {
      if (reply.sent) return
      timer = setTimeout(bodyArriving() ? waitForBody : expire, bodyArriving() ? BODY_POLL_MS : ms)
    }
    timer = setTimeout(expire, ms)
    reply.raw.once('close', () => clearTimeout(timer))
    done()
  })
}
