import type { FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { type BindingConfig, customBinderFor } from './config.js'
import { formatOf, mediaTypeOf } from './content-type.js'
import { escapePointer, unescapePointer, ValidationError, type ValidationIssue } from './errors.js'
import { isObjectSchema, node, type SchemaNode, tagOf } from './schema.js'

/** The body formats whose fields are read by their own tag, never by an alias tag. */
const treeTags = new Set(['json', 'xml', 'msgpack', 'cbor'])

/**
 * The tag a read used to find its fields' names: `tag` given in the call's options, else the
 * source's own (`query`, `header`, `form`...), replaced by the app's alias tag for map sources as
 * binding does. `body` stands for the Content-Type's format; `undefined` for a custom binder's.
 */
export function readTag(
  base: string,
  config: BindingConfig,
  request: FastifyRequest,
  optionTag: string | undefined,
): string | undefined {
  if (optionTag !== undefined) return optionTag
  let tag = base
  if (base === 'body') {
    const mediaType = mediaTypeOf(request)
    if (customBinderFor(config, mediaType) !== undefined) return undefined
    const format = formatOf(mediaType)
    tag = format === 'multipart' ? 'form' : (format ?? 'json')
  }
  return treeTags.has(tag) ? tag : (config.aliasTag ?? tag)
}

/**
 * `error` with its paths under the names the client sent (`query/page_size`, not the property
 * `pageSize`), as Fastify's own validation names what it validated: the request as received. A
 * `ValidationError` of one source only; anything else is returned as it is.
 */
export function withWireNames(error: unknown, schema: TSchema, tag: string | undefined): unknown {
  if (!(error instanceof ValidationError) || tag === undefined) return error
  let changed = false
  const validation = error.validation.map((issue) => {
    const renamed = wireIssue(issue, schema, tag)
    if (renamed !== issue) changed = true
    return renamed
  })
  return changed ? new ValidationError(error.validationContext, validation) : error
}

function wireIssue(issue: ValidationIssue, schema: TSchema, tag: string): ValidationIssue {
  const { path, at } = wirePath(schema, issue.instancePath, tag)
  const missing = issue.params.requiredProperties
  const properties = at === undefined || !isObjectSchema(at) ? undefined : node(at).properties
  const wireMissing =
    Array.isArray(missing) && properties !== undefined
      ? missing.map((name) => wireName(properties[String(name)], String(name), tag))
      : missing
  if (path === issue.instancePath && wireMissing === missing) return issue
  const params = wireMissing === missing ? issue.params : { ...issue.params, requiredProperties: wireMissing }
  return { ...issue, instancePath: path, params }
}

function wireName(schema: TSchema | undefined, prop: string, tag: string): string {
  return (schema === undefined ? undefined : tagOf(schema, tag)) ?? prop
}

/**
 * A JSON Pointer into the bound value, rewritten segment by segment into one into what the
 * client sent, and the schema it ends at. Object properties take their tag's name, array indexes
 * stay; where the schema gives no answer (a union, a map) the rest stays as it is.
 */
function wirePath(schema: TSchema, pointer: string, tag: string): { path: string; at: TSchema | undefined } {
  if (pointer === '') return { path: pointer, at: schema }
  let at: TSchema | undefined = schema
  let path = ''
  for (const segment of pointer.slice(1).split('/')) {
    const key = unescapePointer(segment)
    const n: SchemaNode | undefined = at === undefined ? undefined : node(at)
    const child: TSchema | undefined =
      n === undefined
        ? undefined
        : isObjectSchema(at as TSchema)
          ? n.properties?.[key]
          : n.type === 'array' && /^\d+$/.test(key) && typeof n.items === 'object'
            ? (n.items as TSchema)
            : undefined
    path += `/${child !== undefined && n?.type !== 'array' ? escapePointer(wireName(child, key, tag)) : segment}`
    at = child
  }
  return { path, at }
}
