import { Buffer } from 'node:buffer'
import type { FastifyRequest } from 'fastify'
import { BindingSetupError } from './errors.js'
import type { MultipartForm, PartFilter } from './multipart-read.js'
import type { FileHeader } from './schema.js'

// What `@fastify/multipart` puts in `request.body` with `attachFieldsToBody: true`: its part objects
// (a list when a name came more than once); with `'keyValues'`, the values themselves (a text, a
// value it parsed from a JSON part, or a file's bytes).
type FieldPart = { type: 'field'; fieldname: string; value: unknown }
type FilePart = { type: 'file'; fieldname: string; filename: string; mimetype: string; encoding: string; _buf: unknown }

/**
 * The form `@fastify/multipart` attached to `request.body` (its `attachFieldsToBody` option), or
 * `undefined` when it did not: it read the body itself, before the handler, so this is all there is.
 */
export function attachedForm(request: FastifyRequest, keep: PartFilter): MultipartForm | undefined {
  const body = request.body
  const isMultipart = (request as { isMultipart?: () => boolean }).isMultipart
  if (typeof isMultipart !== 'function' || body === null || typeof body !== 'object' || Buffer.isBuffer(body)) {
    return undefined
  }
  const form: MultipartForm = { value: Object.create(null), file: Object.create(null) }
  for (const [name, entry] of Object.entries(body)) {
    for (const item of Array.isArray(entry) ? entry : [entry]) addEntry(form, name, item, keep)
  }
  return form
}

function addEntry(form: MultipartForm, name: string, item: unknown, keep: PartFilter): void {
  const type = (item as { type?: unknown } | null)?.type
  if (type === 'file' || Buffer.isBuffer(item)) {
    let files = form.file[name]
    if (files === undefined) {
      files = []
      form.file[name] = files
    }
    if (keep === undefined || keep(name, true)) files.push(fileHeader(name, item as FilePart | Buffer))
    return
  }
  let values = form.value[name]
  if (values === undefined) {
    values = []
    form.value[name] = values
  }
  if (keep !== undefined && !keep(name, false)) return
  values.push(text(type === 'field' ? (item as FieldPart).value : item))
}

/** A field's value as the text sent (a JSON part that the plugin parsed goes back to JSON text). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function fileHeader(name: string, item: FilePart | Buffer): FileHeader {
  // 'keyValues' keeps a file's bytes only: its name and type are not known
  const part: FilePart = Buffer.isBuffer(item)
    ? {
        type: 'file',
        fieldname: name,
        filename: '',
        mimetype: 'application/octet-stream',
        encoding: '7bit',
        _buf: item,
      }
    : item
  if (!Buffer.isBuffer(part._buf)) {
    throw new BindingSetupError(
      'WEFT_MULTIPART_FILE_TAKEN',
      `the file of field '${name}' was taken by @fastify/multipart's onFile option, so bind() cannot read it: bind the other fields with a schema without it, or drop onFile`,
    )
  }
  return {
    fieldname: name,
    filename: part.filename,
    mimetype: part.mimetype,
    encoding: part.encoding,
    size: part._buf.length,
    headers: {
      'content-disposition': `form-data; name="${name}"; filename="${part.filename}"`,
      'content-type': part.mimetype,
    },
    buffer: part._buf,
  }
}
