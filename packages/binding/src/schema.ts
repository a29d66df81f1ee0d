import { type TSchema, type TUnsafe, Type } from 'typebox'

/** A JSON Schema node as binding reads it (TypeBox schemas are plain JSON Schema objects). */
export type SchemaNode = {
  type?: string | string[]
  properties?: Record<string, TSchema>
  required?: string[]
  items?: TSchema
  anyOf?: TSchema[]
  enum?: unknown[]
  const?: unknown
  format?: string
  default?: unknown
  [key: string]: unknown
}

/** The schema option that marks an uploaded-file field. */
export const fileMarker = 'weftFile'

/**
 * An uploaded file of a multipart form, held in memory (bounded by the multipart limits).
 *
 * @example
 * const Upload = Type.Object({ avatar: FileField(), docs: Type.Array(FileField()) })
 * const { avatar } = await bind(request).form(Upload)   // avatar: FileHeader
 */
export type FileHeader = {
  fieldname: string
  filename: string
  mimetype: string
  encoding: string
  size: number
  headers: Record<string, string>
  buffer: Buffer
}

/**
 * A schema for a multipart file field: it receives the first file sent under its key;
 * `Type.Array(FileField())` receives all of them.
 *
 * @example
 * Type.Object({ avatar: FileField({ form: 'avatar_file' }) })
 */
export function FileField(options: Record<string, unknown> = {}): TUnsafe<FileHeader> {
  return Type.Unsafe<FileHeader>({ ...options, [fileMarker]: true })
}

/** Reads a schema as a plain JSON Schema node. */
export function node(schema: TSchema): SchemaNode {
  return schema as SchemaNode
}

/** True for schemas made by {@link FileField}. */
export function isFileSchema(schema: TSchema): boolean {
  return node(schema)[fileMarker] === true
}

/** True for `Type.Object` (and other schemas with `properties`). */
export function isObjectSchema(schema: TSchema): boolean {
  const n = node(schema)
  return n.type === 'object' || (n.type === undefined && n.properties !== undefined)
}

/** The string value of schema option `name`, if it is a non-empty string. */
export function tagOf(schema: TSchema, name: string): string | undefined {
  const value = node(schema)[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** A plain object (of `Object.prototype` or no prototype): what a decoded body's objects are. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** Puts `value` on `out[prop]` without ever touching the prototype (even for `__proto__`). */
export function setProp(out: Record<string, unknown>, prop: string, value: unknown): void {
  if (prop === '__proto__') {
    Object.defineProperty(out, prop, { value, enumerable: true, writable: true, configurable: true })
  } else {
    out[prop] = value
  }
}
