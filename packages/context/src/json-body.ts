import { Buffer } from 'node:buffer'
import type { FastifyReply } from 'fastify'
import { toJSON } from './serializers.js'

type Serialize = (data: unknown) => string
/** What Fastify compiled for one key of `schema.response`: a serializer, or one per media type (`content`). */
type Compiled = Serialize | Record<string, Serialize | undefined>
type SerializerLookup = (key: string | number) => Compiled | undefined

/** The `Nxx` key of each status class, by its first digit. */
const CLASS_KEYS = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx']

/** The media type of the Content-Type being sent: lower case, without parameters. */
function sentMediaType(reply: FastifyReply): string {
  const contentType = reply.getHeader('content-type')
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

  /** The body text for `reply`, as it stands now (status and Content-Type). */
  text(reply: FastifyReply): string {
    const serialize = responseSerializer(reply, reply.statusCode, () => this.mediaType ?? sentMediaType(reply))
    const json = serialize === undefined ? toJSON(this.data) : serialize(this.data)
    return this.wrap === undefined ? json : this.wrap(json)
  }
}
