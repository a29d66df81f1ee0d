import type { CtxBase } from './ctx-base.js'

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
  if (c._chunks !== undefined) return Buffer.concat(c._chunks)
  if (c._body !== undefined) return c._body
  if (result !== undefined && result !== c) return result
  return ''
}
