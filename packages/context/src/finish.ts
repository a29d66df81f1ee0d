import type { CtxBase } from './ctx-base.js'
import { statusForbidsBody } from './status.js'

function discard(body: unknown): void {
  const stream = body as { destroy?: () => void } | undefined
  if (stream !== null && typeof stream === 'object' && typeof stream.destroy === 'function') stream.destroy()
}

/**
 * 1xx, 204, 205 and 304 carry no content: whatever was buffered or returned is dropped (a stream
 * is destroyed, so a file it reads is closed) and the reply is sent empty. Sending it here, with
 * no payload at all, keeps Fastify from adding a Content-Type or a Content-Length of the dropped
 * body (it still sends `Content-Length: 0` for 205, which HTTP/1.1 framing needs, as fasthttp does).
 */
function sendWithoutBody(c: CtxBase, result: unknown): unknown {
  discard(c._body)
  discard(result)
  c._body = undefined
  c._chunks = undefined
  c._res.removeHeader('content-length')
  c._res.removeHeader('content-type')
  c._res.send()
  return c._res
}

/**
 * What a chain leaves to send: the buffered body (or the chunks of `write*`), else the value the
 * chain returned, else an empty body. The Fastify handler returns it and Fastify sends it (so
 * streams work as in plain Fastify); `undefined` when the reply was already sent directly, so
 * nothing is sent twice.
 */
export function finish(c: CtxBase, result: unknown): unknown {
  const reply = c._res
  // sent or being sent directly (`return reply` is Fastify's way to say so)
  if (reply.sent || reply.raw.headersSent || result === reply) return undefined
  if (statusForbidsBody(reply.statusCode)) return sendWithoutBody(c, result)
  if (c._chunks !== undefined) return Buffer.concat(c._chunks)
  if (c._body !== undefined) return c._body
  if (result !== undefined && result !== c) return result
  return ''
}
