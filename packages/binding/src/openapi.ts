import type { FastifySchema } from 'fastify'
import type { TSchema } from 'typebox'
import { fileMarker, isObjectSchema, node, tagOf } from './schema.js'
import { hasWeftKeywords, secondaryTagOf, weftKeywords } from './weft-keywords.js'

/** A route schema part as `@fastify/swagger` documents it. */
export type DocumentedPart = 'querystring' | 'params' | 'headers' | 'body' | 'response'

/** The tag whose names a part's document shows (the names clients send). */
const tagOfPart: Record<DocumentedPart, string | undefined> = {
  querystring: 'query',
  params: 'uri',
  headers: 'header',
  body: 'json',
  response: undefined,
}

const subschemaKeys = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains']
const subschemaLists = ['anyOf', 'oneOf', 'allOf', 'prefixItems']
const subschemaMaps = ['patternProperties', '$defs', 'definitions']

const documented = new WeakMap<object, Map<string, unknown>>()

/**
 * The JSON Schema a document should show for `schema` used as `part` of a route: property names
 * become the names clients send (the part's tag: `query`, `uri`, `header`, `json`, or `form` for a
 * body with files), Weft's keywords are dropped, a field with a `default` is not required (Weft
 * fills it), `FileField()` is a binary string, and in the query a nested object is flattened to the
 * bracket keys Weft reads (`price[min]`). A schema without Weft's keywords is returned as it is.
 *
 * @example
 * documentedSchema(Type.Object({ dryRun: Type.Boolean({ query: 'dry_run' }) }), 'querystring')
 * // { type: 'object', properties: { dry_run: { type: 'boolean' } }, required: ['dry_run'] }
 */
export function documentedSchema(schema: unknown, part: DocumentedPart): unknown {
  if (!hasWeftKeywords(schema)) return schema
  const key = schema as object
  let byPart = documented.get(key)
  if (byPart === undefined) {
    byPart = new Map()
    documented.set(key, byPart)
  }
  if (!byPart.has(part)) {
    const tag =
      part === 'body' && hasFileField(schema as TSchema)
        ? 'form'
        : (secondaryTagOf(schema as TSchema, part) ?? tagOfPart[part])
    const clean = rewrite(schema as TSchema, tag)
    byPart.set(part, part === 'querystring' ? flattenObjects(clean) : clean)
  }
  return byPart.get(part)
}

type Node = Record<string, unknown>

function rewrite(schema: TSchema, tag: string | undefined): Node {
  const n = node(schema)
  if (n[fileMarker] === true) {
    const file: Node = { type: 'string', format: 'binary' }
    if (typeof n.description === 'string') file.description = n.description
    return file
  }
  const out: Node = {}
  for (const [key, value] of Object.entries(n)) {
    if (weftKeywords.has(key)) continue
    if (key === 'properties' || key === 'required') continue
    if (subschemaKeys.includes(key) && isSchema(value)) out[key] = rewrite(value as TSchema, tag)
    else if (subschemaLists.includes(key) && Array.isArray(value)) {
      out[key] = value.map((item) => (isSchema(item) ? rewrite(item as TSchema, tag) : item))
    } else if (subschemaMaps.includes(key) && isSchema(value)) {
      const map: Node = {}
      for (const [name, child] of Object.entries(value as Node)) {
        map[name] = isSchema(child) ? rewrite(child as TSchema, tag) : child
      }
      out[key] = map
    } else out[key] = value
  }
  if (n.properties !== undefined) {
    const required = new Set(n.required ?? [])
    const properties: Node = {}
    const names: string[] = []
    for (const [prop, child] of Object.entries(n.properties)) {
      const wire = (tag === undefined ? undefined : tagOf(child, tag)) ?? prop
      properties[wire] = rewrite(child, tag)
      // a field Weft fills with its default need not be sent
      if (required.has(prop) && node(child).default === undefined) names.push(wire)
    }
    out.properties = properties
    if (names.length > 0) out.required = names
  }
  return out
}

/** Query objects as the bracket keys Weft reads: `price: {min}` becomes `price[min]`. */
function flattenObjects(schema: Node): Node {
  const properties = schema.properties as Record<string, Node> | undefined
  if (properties === undefined) return schema
  const required = new Set((schema.required as string[] | undefined) ?? [])
  const flat: Node = {}
  const names: string[] = []
  const add = (name: string, child: Node, isRequired: boolean): void => {
    if (isObjectSchema(child as TSchema) && child.properties !== undefined) {
      const inner = new Set((child.required as string[] | undefined) ?? [])
      for (const [key, grandchild] of Object.entries(child.properties as Record<string, Node>)) {
        add(`${name}[${key}]`, grandchild, isRequired && inner.has(key))
      }
      return
    }
    flat[name] = child
    if (isRequired) names.push(name)
  }
  for (const [name, child] of Object.entries(properties)) add(name, child, required.has(name))
  const { required: _dropped, ...rest } = schema
  return names.length > 0 ? { ...rest, properties: flat, required: names } : { ...rest, properties: flat }
}

function hasFileField(schema: TSchema): boolean {
  for (const child of Object.values(node(schema).properties ?? {})) {
    const c = node(child)
    if (c[fileMarker] === true || (isSchema(c.items) && node(c.items as TSchema)[fileMarker] === true)) return true
  }
  return false
}

function isSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** What `@fastify/swagger` passes a `transform` and takes back (the parts this package reads). */
export type SwaggerTransformInput = { schema: FastifySchema; url: string }

/**
 * A route's `schema` as documents should show it: the parts written with Weft's tags documented by
 * {@link documentedSchema} (request parts and responses), the rest as it is. A new object; the
 * route's own schema is not changed.
 */
export function documentedRouteSchema(schema: FastifySchema): FastifySchema {
  const route = schema as unknown as Node
  const out: Node = { ...route }
  for (const part of ['querystring', 'params', 'headers', 'body'] as const) {
    if (route[part] !== undefined) out[part] = documentedSchema(route[part], part)
  }
  // a tagged body with files is a multipart form; @fastify/swagger documents a body as JSON
  // unless the route says which types it consumes
  if (route.consumes === undefined && isSchema(route.body) && hasWeftKeywords(route.body)) {
    if (hasFileField(route.body as TSchema)) out.consumes = ['multipart/form-data']
  }
  if (route.query !== undefined) out.query = documentedSchema(route.query, 'querystring')
  if (isSchema(route.response)) {
    const responses: Node = {}
    for (const [status, response] of Object.entries(route.response as Node)) {
      responses[status] = documentedSchema(response, 'response')
    }
    out.response = responses
  }
  return out as FastifySchema
}

/**
 * A `transform` for `@fastify/swagger`: the route's parts written with Weft's tags are documented
 * by {@link documentedSchema} (the names clients send, no Weft keywords); other parts are left as
 * they are. The routes whose schemas the plugin validates are documented so without it (see the
 * README); it remains for routes outside the plugin's scope, and is harmless on the others.
 * Compose it with a transform of your own by calling it first.
 *
 * @example
 * await app.register(swagger, { openapi: { info }, transform: weftSwaggerTransform })
 */
export function weftSwaggerTransform(input: SwaggerTransformInput): SwaggerTransformInput {
  const { schema, url } = input
  if (typeof schema !== 'object' || schema === null) return { schema, url }
  return { schema: documentedRouteSchema(schema), url }
}
