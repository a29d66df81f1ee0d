import type { CtxBase } from './ctx-base.js'
import { JSON_TYPE, JsonBody } from './json-body.js'

// `c.json(data)` without a Content-Type of its own leaves the header to the send: an object is
// handed to Fastify with none, and Fastify gives it its own `application/json; charset=utf-8` (the
// same bytes) as it does a returned object. A Content-Type set beforehand is one Fastify looks up
// and parses again on every send, about 1,000 instructions per request (bench/RESULTS.md). Until
// the send, the reply's Content-Type is '' (a value Fastify takes for none) and Weft's own header
// reads (`getRespHeader`, `getRespHeaders`) answer the JSON type.

/** Marks `c`'s Content-Type as the JSON one, to be set as the chain's answer is sent. */
export function leaveJsonType(c: CtxBase): void {
  // '' replaces a Content-Type set earlier, which json() overrides
  c._res.type('')
  c._jsonType = true
}

/** Whether the reply's Content-Type is still the JSON one `json()` left to the send. */
export function isJsonTypeLeft(c: CtxBase, contentType: unknown): boolean {
  return c._jsonType && contentType === ''
}

/**
 * Settles the Content-Type `json()` left, as the chain ends: returns the object to hand Fastify
 * (which sets its JSON type) when that is what is sent, else sets the type and returns undefined.
 */
export function settleJsonType(c: CtxBase): unknown {
  c._jsonType = false
  if (c._res.getHeader('content-type') !== '') return undefined
  const body = c._body
  if (c._chunks === undefined && body instanceof JsonBody && body.isHandedAsObject()) return body.data
  c._res.type(JSON_TYPE)
  return undefined
}
