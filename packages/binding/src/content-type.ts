import { Buffer } from 'node:buffer'
import type { FastifyRequest } from 'fastify'

/** The body formats binding decodes itself. */
export type BodyFormat = 'json' | 'form' | 'multipart' | 'xml' | 'msgpack' | 'cbor'

// The last Content-Type seen and its media type: clients send the same header on request after
// request, and comparing it costs less than trimming and lower-casing it again.
let lastHeader: string | undefined
let lastMediaType = ''

/** The request's media type: lower-cased, parameters (`; charset=...`) dropped. */
export function mediaTypeOf(request: FastifyRequest): string {
  const header = request.headers['content-type']
  return header === undefined ? '' : mediaTypeOfHeader(header)
}

/** The media type of a Content-Type header: lower-cased, parameters dropped. */
export function mediaTypeOfHeader(header: string): string {
  if (header === lastHeader) return lastMediaType
  const semicolon = header.indexOf(';')
  const mediaType = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase()
  lastHeader = header
  lastMediaType = mediaType
  return mediaType
}

/** The format of a media type, understanding `+json`, `+xml`, `+cbor` and `+msgpack` suffixes. */
export function formatOf(mediaType: string): BodyFormat | undefined {
  switch (mediaType) {
    case 'application/json':
      return 'json'
    case 'application/x-www-form-urlencoded':
      return 'form'
    case 'multipart/form-data':
      return 'multipart'
    case 'application/xml':
    case 'text/xml':
      return 'xml'
    case 'application/vnd.msgpack':
    case 'application/msgpack':
    case 'application/x-msgpack':
      return 'msgpack'
    case 'application/cbor':
      return 'cbor'
  }
  if (mediaType.endsWith('+json')) return 'json'
  if (mediaType.endsWith('+xml')) return 'xml'
  if (mediaType.endsWith('+cbor')) return 'cbor'
  if (mediaType.endsWith('+msgpack')) return 'msgpack'
  return undefined
}

/** The media types each format accepts, for error messages. */
export const expectedTypes: Record<BodyFormat, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded or multipart/form-data',
  multipart: 'multipart/form-data',
  xml: 'application/xml or text/xml',
  msgpack: 'application/vnd.msgpack',
  cbor: 'application/cbor',
}

/** The body formats `body()` accepts, for error messages: XML, MessagePack and CBOR once enabled. */
export function bodyTypes(enabled: { xml: unknown; msgpack: unknown; cbor: unknown }): string {
  const names = ['JSON', 'a form']
  if (enabled.xml !== undefined) names.push('XML')
  if (enabled.msgpack !== undefined) names.push('MessagePack')
  if (enabled.cbor !== undefined) names.push('CBOR')
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`
}

/** The rule for `all()`: a body counts only when it is non-empty and has a Content-Type. */
export function hasBody(request: FastifyRequest): boolean {
  if (mediaTypeOf(request) === '' || request.headers['content-length'] === '0') return false
  const body = request.body
  if (body === undefined || body === null) {
    const length = request.headers['content-length']
    return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  }
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body.length > 0
  return true
}
