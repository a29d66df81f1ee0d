import { Buffer } from 'node:buffer'
import { parse as parseQueryString } from 'fast-querystring'
import type { FastifyRequest } from 'fastify'
import type { BinaryDecoder, BindingConfig } from './config.js'
import { BindError, BindingSetupError, BindSource, InvalidUtf8Error } from './errors.js'
import { checkJsonDepth } from './json-depth.js'
import type { RawMap } from './map-types.js'
import { toRawMap } from './sources.js'
import { utf8Text } from './utf8.js'

/** The body as text, or `undefined` when there is none; bytes that are not UTF-8 are a 400. */
function text(body: unknown): string | undefined {
  if (typeof body === 'string') return body
  if (Buffer.isBuffer(body)) {
    const decoded = utf8Text(body)
    if (decoded === undefined) throw new InvalidUtf8Error()
    return decoded
  }
  return undefined
}

/**
 * The JSON body, decoded exactly once. A JSON Content-Type (`application/json`, `+json`) means
 * Fastify's parser has decoded it already: its value is taken as it is (a JSON string stays a
 * string, even one that looks like JSON), and only a parser of the app's own that kept the bytes
 * (a Buffer) is decoded here. Any other body that is still text or bytes (`text/plain`, no
 * Content-Type, an app's `application/octet-stream` parser) is decoded as JSON, as Fiber decodes
 * the bytes whatever the header. An empty body of a JSON type is a `BindError` with `emptyIsError`
 * (`body()`: there is no JSON value to bind, as in Fiber); else, like an absent one, it is `{}`
 * (no fields: the validator names the required ones).
 */
export function jsonBody(request: FastifyRequest, isJsonType: boolean, emptyIsError: boolean): unknown {
  const body = request.body
  if (body === undefined) {
    if (isJsonType && emptyIsError) throw emptyBody('JSON')
    return {}
  }
  // `ArrayBuffer.isView` first: V8 inlines it, where `Buffer.isBuffer` is an `instanceof` walk
  // (a kept Buffer, or any typed array, goes on to the checks below)
  if (isJsonType && !ArrayBuffer.isView(body)) return body
  const raw = text(body)
  if (raw === undefined) return body
  if (raw.trim() === '') {
    if (isJsonType && emptyIsError) throw emptyBody('JSON')
    return {}
  }
  // the same 400 as the plugin's JSON parser gives, whatever the Content-Type said
  checkJsonDepth(raw)
  try {
    return JSON.parse(raw)
  } catch (err) {
    throw new BindError(BindSource.Body, '', err as Error)
  }
}

/** A body of a document format (JSON, XML, MessagePack, CBOR) with no bytes: no value to bind. */
function emptyBody(format: string): BindError {
  return new BindError(BindSource.Body, '', `the ${format} request body is empty`)
}

/** The urlencoded body as a map (parsed by the plugin's parser, `@fastify/formbody`, or here). */
export function urlencodedBody(request: FastifyRequest): RawMap {
  const raw = text(request.body)
  return raw === undefined ? toRawMap(request.body) : (parseQueryString(raw) as RawMap)
}

/** The XML body's root element, as a tree of strings, parsed by the parser `xmlBodies` installed. */
export function xmlBody(request: FastifyRequest, config: BindingConfig): unknown {
  const parse = config.xml
  if (parse === undefined) throw notEnabled('xml')
  const raw = text(request.body)
  if (raw === undefined) {
    if (request.body === undefined) throw emptyBody('XML')
    return request.body
  }
  if (raw.trim() === '') throw emptyBody('XML')
  let doc: Record<string, unknown>
  try {
    doc = parse(raw)
  } catch (err) {
    throw new BindError(BindSource.Body, '', xmlProblem(err as Error))
  }
  const roots = Object.keys(doc)
  if (roots.length !== 1) throw new BindError(BindSource.Body, '', 'the XML body must have one root element')
  return doc[roots[0] as string]
}

/** The longest part of the XML parser's message an answer repeats (tag names come from the client). */
const longestXmlProblem = 200

/**
 * The XML parser's reason, as a client may read it: for unclosed tags it lists every tag still open
 * (3 MB of answer to a 1 MB body), and it quotes tag and attribute names of any length.
 */
function xmlProblem(err: Error): string {
  const message = String(err.message)
  if (message.startsWith("Invalid '[")) return 'the XML body ends with elements not closed'
  if (message.length <= longestXmlProblem) return message
  return `${message.slice(0, longestXmlProblem)}…`
}

const setup = {
  xml: { name: 'XML', plugin: 'xmlBodies', from: '@weft/binding/xml' },
  msgpack: { name: 'MessagePack', plugin: 'msgpackBodies', from: '@weft/binding/msgpack' },
  cbor: { name: 'CBOR', plugin: 'cborBodies', from: '@weft/binding/cbor' },
}

/** An explicit `xml()`, `msgPack()` or `cbor()` call on an app without the format's plugin: a setup mistake. */
function notEnabled(format: keyof typeof setup): BindingSetupError {
  const { name, plugin, from } = setup[format]
  return new BindingSetupError(
    `WEFT_${format.toUpperCase()}_DISABLED`,
    `${name} bodies are not enabled: register ${plugin} (import { ${plugin} } from '${from}') on the app`,
  )
}

/** A MessagePack or CBOR body, decoded by the decoder its setup plugin installed. */
export function binaryBody(request: FastifyRequest, config: BindingConfig, format: 'msgpack' | 'cbor'): unknown {
  const decode: BinaryDecoder | undefined = config[format]
  if (decode === undefined) throw notEnabled(format)
  const body = request.body
  if (!Buffer.isBuffer(body)) {
    if (body === undefined) throw emptyBody(setup[format].name)
    return body
  }
  if (body.length === 0) throw emptyBody(setup[format].name)
  try {
    return decode(body)
  } catch (err) {
    throw new BindError(BindSource.Body, '', err as Error)
  }
}
