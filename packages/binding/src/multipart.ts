import { Buffer } from 'node:buffer'
import type { FastifyRequest, RequestPayload } from 'fastify'
import { configOf } from './config.js'
import { UnsupportedMediaTypeError } from './errors.js'
import { attachedForm } from './multipart-attached.js'
import { BodyTooLargeError, FieldTooLargeError, MalformedMultipartError } from './multipart-errors.js'
import {
  isFieldName,
  type MultipartForm,
  noName,
  type PartFilter,
  type ResolvedLimits,
  readMultipart,
} from './multipart-read.js'
import type { FileHeader } from './schema.js'

export type { MultipartForm } from './multipart-read.js'

const forms = new WeakMap<FastifyRequest, Promise<MultipartForm>>()
const payloads = new WeakMap<FastifyRequest, RequestPayload>()

/**
 * The plugin's `multipart/form-data` body parser. It only remembers the body stream: the form is
 * read when `multipartForm(request)` first asks for it. Written here instead of registering
 * `@fastify/multipart`, whose `onRequest`/`onResponse` hooks ran on every route of the app.
 */
export function deferMultipart(
  request: FastifyRequest,
  payload: RequestPayload,
  done: (error: Error | null, body?: unknown) => void,
): void {
  payloads.set(request, payload)
  done(null)
}

/**
 * Reads the request's multipart form once (later calls get the same result): files are held in
 * memory, the whole body is bounded by the route's `bodyLimit` and each part by the plugin's
 * `multipartLimits` (going over one is a 413). `bind().form(schema)` passes `keep`, so that the
 * parts of no field of its schema are read and discarded, never held.
 *
 * @example
 * const form = await multipartForm(request)
 * const avatar = form.file.avatar?.[0]
 */
export function multipartForm(request: FastifyRequest, keep?: PartFilter): Promise<MultipartForm> {
  let form = forms.get(request)
  if (form === undefined) {
    form = readForm(request, keep)
    forms.set(request, form)
  }
  return form
}

/** The route's `bodyLimit` (Fastify's 1 MiB unless the route or the app set another). */
function bodyLimitOf(request: FastifyRequest): number {
  return request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 1048576
}

function limitsOf(request: FastifyRequest): ResolvedLimits {
  const limits = configOf(request).multipartLimits
  return {
    fileSize: limits.fileSize ?? bodyLimitOf(request),
    files: limits.files ?? 100,
    fields: limits.fields ?? 1000,
    parts: limits.parts ?? 1000,
    fieldSize: limits.fieldSize ?? 1048576,
  }
}

async function readForm(request: FastifyRequest, keep: PartFilter): Promise<MultipartForm> {
  const contentType = request.headers['content-type'] ?? ''
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw new UnsupportedMediaTypeError(contentType, 'multipart/form-data')
  }
  const payload = payloads.get(request)
  if (payload !== undefined) {
    return readMultipart(payload, request.headers, limitsOf(request), bodyLimitOf(request), keep)
  }
  // @fastify/multipart with `attachFieldsToBody` read the body before the handler
  const attached = attachedForm(request, keep)
  if (attached !== undefined) return attached
  const withParts = request as unknown as PartsRequest
  if (typeof withParts.parts === 'function') {
    // the plugin's own limits stand, unless the app gave weftBinding some
    const given = configOf(request).multipartLimits
    const limits = Object.keys(given).length === 0 ? undefined : limitsOf(request)
    return readParts(withParts, limits, bodyLimitOf(request), keep)
  }
  // a parser of the app's own (or a catch-all) let the body through: the client's choice of a
  // type the app does not read as a form
  throw new UnsupportedMediaTypeError(contentType, 'a form this server reads (multipart forms are not enabled)')
}

// The part of `@fastify/multipart`'s request API used when an app registered it itself (then
// weftBinding leaves the multipart parser to it).
type Part =
  | {
      type: 'file'
      fieldname: string
      filename: string
      mimetype: string
      encoding: string
      file: AsyncIterable<Buffer>
      toBuffer(): Promise<Buffer>
    }
  | { type: 'field'; fieldname: string; value: unknown; valueTruncated: boolean }
type PartsRequest = { parts(options?: { limits: ResolvedLimits }): AsyncIterable<Part> }

/**
 * A failure while reading `@fastify/multipart`'s parts: its limits come as 413s with codes, but
 * busboy's reading errors (no boundary, a body cut short) come as plain `Error`s, which Fastify
 * would answer with a 500. They are the client's malformed body. A bug (a `TypeError`...) stays one.
 */
function asClientError(error: unknown): unknown {
  const plain = error instanceof Error && error.constructor === Error
  const coded = plain && ('statusCode' in error || 'code' in error)
  return plain && !coded ? new MalformedMultipartError(error.message) : error
}

// The bytes of the parts read, against `bodyLimit` (part headers are not seen through this API,
// so the count is of names, values and file contents: what would be held).
async function readParts(
  request: PartsRequest,
  limits: ResolvedLimits | undefined,
  bodyLimit: number,
  keep: PartFilter,
): Promise<MultipartForm> {
  const value: Record<string, string[]> = Object.create(null)
  const file: Record<string, FileHeader[]> = Object.create(null)
  let received = 0
  const count = (bytes: number) => {
    received += bytes
    if (received > bodyLimit) throw new BodyTooLargeError()
  }
  try {
    for await (const part of request.parts(limits === undefined ? undefined : { limits })) {
      if (!isFieldName(part.fieldname)) throw new MalformedMultipartError(noName)
      count(Buffer.byteLength(part.fieldname))
      if (part.type === 'file' && keep !== undefined && !keep(part.fieldname, true)) {
        file[part.fieldname] ??= []
        for await (const chunk of part.file) count(chunk.length)
        continue
      }
      if (part.type === 'file') {
        const buffer = await part.toBuffer()
        count(buffer.length)
        file[part.fieldname] ??= []
        file[part.fieldname]?.push({
          fieldname: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          encoding: part.encoding,
          size: buffer.length,
          headers: {
            'content-disposition': `form-data; name="${part.fieldname}"; filename="${part.filename}"`,
            'content-type': part.mimetype,
          },
          buffer,
        })
      } else {
        if (part.valueTruncated) throw new FieldTooLargeError(part.fieldname)
        const text = String(part.value)
        count(Buffer.byteLength(text))
        value[part.fieldname] ??= []
        if (keep === undefined || keep(part.fieldname, false)) value[part.fieldname]?.push(text)
      }
    }
  } catch (error) {
    throw asClientError(error)
  }
  return { value, file }
}
