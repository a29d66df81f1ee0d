import { Buffer } from 'node:buffer'
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { CtxBase } from './ctx-base.js'
import { JsonBody } from './json-body.js'
import { statusForbidsBody } from './status.js'
import { kNoContent } from './symbols.js'

function discard(body: unknown): void {
  const stream = body as { destroy?: () => void } | undefined
  if (stream !== null && typeof stream === 'object' && typeof stream.destroy === 'function') stream.destroy()
}

/**
 * Fastify adds `Content-Length: 0` to every empty reply but 204 and 304, after the last hook has
 * run, so no hook can take it off. A response with no content at all (205, or `sendStatus(299)`)
 * must not announce a length, so the header is dropped as the head is written. Over HTTP/1.1,
 * Node then frames the empty response with a single zero-length chunk (RFC 9110 §15.3.6 allows
 * both), and the connection stays open.
 */
function omitContentLength(raw: ServerResponse): void {
  const writeHead = raw.writeHead
  raw.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.at(-1)
    if (headers !== null && typeof headers === 'object' && !Array.isArray(headers)) {
      delete (headers as OutgoingHttpHeaders)['content-length']
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
  } as ServerResponse['writeHead']
}

/**
 * 1xx, 204, 205 and 304 carry no content, nor does `sendStatus()` of a code without a reason
 * phrase: whatever was buffered or returned is dropped (a stream is destroyed, so a file it reads
 * is closed) and the reply is sent with no payload, no Content-Type and no Content-Length.
 */
function sendWithoutBody(c: CtxBase, result: unknown): unknown {
  discard(c._body)
  discard(result)
  c._body = undefined
  c._chunks = undefined
  c._res.removeHeader('content-type')
  // any Content-Length, set by the handler or added by Fastify, goes as the head is written
  omitContentLength(c._res.raw)
  c._res.send()
  return c._res
}

/**
 * What a chain leaves to send: the buffered body (or the chunks of `write*`; a JSON body as
 * Fastify serializes a returned object, with the status being sent: see json-body.ts), else the
 * value the chain returned, else an empty body. The Fastify handler returns it and Fastify sends it (so
 * streams work as in plain Fastify); `undefined` when the reply was already sent directly, so
 * nothing is sent twice.
 */
export function finish(c: CtxBase, result: unknown): unknown {
  const reply = c._res
  // sent or being sent directly (`return reply` is Fastify's way to say so)
  if (reply.sent || reply.raw.headersSent || result === reply) return undefined
  if (statusForbidsBody(reply.statusCode) || c._body === kNoContent) return sendWithoutBody(c, result)
  if (c._chunks !== undefined) return Buffer.concat(c._chunks)
  const body = c._body
  if (body instanceof JsonBody) return body.sendable(reply)
  if (body !== undefined) return body
  if (result !== undefined && result !== c) return result
  return ''
}
