import { Buffer } from 'node:buffer'
import type { FastifyReply } from 'fastify'
import { toJSON } from './serializers.js'

type Serialize = (data: unknown) => string
/** What Fastify compiled for one key of `schema.response`: a serializer, or one per media type (`content`). */
type Compiled = Serialize | Record<string, Serialize | undefined>
type SerializerLookup = (key: string | number) => Compiled | undefined

/** The Content-Type `json()` sets unless told another. */
export const JSON_TYPE = 'application/json; charset=utf-8'

/** The `Nxx` key of each status class, by its first digit. */
const CLASS_KEYS = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx']

/** The media type of the Content-Type being sent: lower case, without parameters. */
function sentMediaType(reply: FastifyReply): string {
  return mediaTypeOf(reply.getHeader('content-type'))
}

/** The media type of a Content-Type header value: lower case, without parameters ('' without one). */
function mediaTypeOf(contentType: unknown): string {
  if (typeof contentType !== 'string') return ''
  const semicolon = contentType.indexOf(';')
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase()
}

/**
 * What Fastify compiled from the route's `schema.response` for `status`, found as Fastify finds
 * it for a returned object: the exact code, else its class (`2xx`), else `default`. Read through
 * `reply.getSerializationFunction()`, so a `setSerializerCompiler()` of the app is honoured.
 */
function compiledFor(reply: FastifyReply, status: number): Compiled | undefined {
  const lookup = reply.getSerializationFunction as unknown as SerializerLookup
  return (
    lookup.call(reply, status) ??
    lookup.call(reply, CLASS_KEYS[(status / 100) | 0] as string) ??
    lookup.call(reply, 'default')
  )
}

/** A serializer's output as text (an app's reply serializer may give bytes). */
function textOf(serialized: string | ArrayBuffer | Buffer): string {
  return typeof serialized === 'string' ? serialized : Buffer.from(serialized as ArrayBuffer).toString()
}

/**
 * How to write a value on a route with a response schema for `status`, `undefined` when it has
 * none. A schema for the status: `reply.serialize()`, which is what Fastify does with a returned
 * object (the app's `setReplySerializer()`/`reply.serializer()` first, else that schema's
 * serializer). A schema keyed by media type (`content`), which `reply.serialize()` cannot pick
 * from: the one for `mediaType()`, else for `'*\/*'`, else none (as in Fastify, the next status
 * key is not tried).
 */
function responseSerializer(reply: FastifyReply, status: number, mediaType: () => string): Serialize | undefined {
  const compiled = compiledFor(reply, status)
  if (compiled === undefined) return undefined
  if (typeof compiled === 'function') return (data) => textOf(reply.serialize(data))
  return compiled[mediaType()] ?? compiled['*/*']
}

// read once: `Response` is a lazy getter of Node's global object
const WebResponse = globalThis.Response

/**
 * A value Fastify serializes when a handler returns it, rather than sending it as it is (streams,
 * bytes, a `Response`) or taking it for an error: an object or array of data.
 */
function isSerializedByFastify(data: unknown): data is object {
  if (typeof data !== 'object' || data === null) return false
  if (Array.isArray(data)) return true
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer || data instanceof Error) return false
  const value = data as { pipe?: unknown; getReader?: unknown }
  if (typeof value.pipe === 'function' || typeof value.getReader === 'function') return false
  return !(data instanceof WebResponse)
}

// Fastify's per-reply serializer slot (`reply.serializer()`), found on the first reply: a reply
// with one gets no Content-Type from Fastify. Read, never written; not found (another Fastify), no
// reply is taken for one without.
let serializerSlot: symbol | null | undefined

function hasNoOwnSerializer(reply: FastifyReply): boolean {
  if (serializerSlot === undefined) {
    serializerSlot =
      Object.getOwnPropertySymbols(reply).find((key) => key.description === 'fastify.reply.serializer') ?? null
  }
  return serializerSlot !== null && (reply as unknown as Record<symbol, unknown>)[serializerSlot] === null
}

/**
 * Hands `data` to Fastify under its own JSON Content-Type, the same `application/json;
 * charset=utf-8` as `JSON_TYPE`: Fastify gives a returned object that type itself, where a type set
 * beforehand is one it reads and parses again on every send (about 1,000 instructions more per
 * request, counted). So the header, set by `json()` and read by the chain and by your hooks until
 * now, is emptied just before the send ('' is no type to Fastify). Not when the reply has its own
 * serializer: Fastify then sets no type, and the one set stays.
 */
function leaveTypeToFastify(reply: FastifyReply, data: unknown): unknown {
  if (hasNoOwnSerializer(reply)) reply.type('')
  return data
}

/**
 * A value to send as JSON text, serialized when the chain ends: with the status then set, by the
 * route's response schema for that status when it has one (so its fields, and only those, are
 * sent), else as `JSON.stringify` would (`undefined` as `null`). `mediaType` picks among schemas
 * keyed by media type; `undefined` means the Content-Type being sent. `wrap` turns the JSON into
 * the body (JSONP's call, `format()`'s HTML paragraph).
 */
export class JsonBody {
  readonly data: unknown
  readonly mediaType: string | undefined
  readonly wrap: ((json: string) => string) | undefined

  constructor(data: unknown, mediaType?: string, wrap?: (json: string) => string) {
    this.data = data
    this.mediaType = mediaType
    this.wrap = wrap
  }

  /**
   * What to hand Fastify for `reply`, as it stands now: an object under a JSON Content-Type is
   * handed over as it is, so that Fastify sends it exactly as a returned object (preSerialization
   * hooks, then the reply serializer of the app or the route's response schema for the status);
   * anything else as its text. The `+json` rule is Fastify's own: a media type containing `json`.
   */
  sendable(reply: FastifyReply): unknown {
    if (this.mediaType !== undefined || this.wrap !== undefined || !isSerializedByFastify(this.data)) {
      return this.text(reply)
    }
    const contentType = reply.getHeader('content-type')
    if (contentType === JSON_TYPE) return leaveTypeToFastify(reply, this.data)
    return mediaTypeOf(contentType).includes('json') ? this.data : this.text(reply)
  }

  /** The body text for `reply`, as it stands now (status and Content-Type). */
  text(reply: FastifyReply): string {
    const serialize = responseSerializer(reply, reply.statusCode, () => this.mediaType ?? sentMediaType(reply))
    const json = serialize === undefined ? toJSON(this.data) : serialize(this.data)
    return this.wrap === undefined ? json : this.wrap(json)
  }
}
