import type { TSchema } from 'typebox'
import { fileMarker, node } from './schema.js'

/**
 * The schema options Weft reads and JSON Schema does not know: the source tags (`query: 'dry_run'`),
 * the tags `@weft/context`'s parsers pass (`params`, `reqHeader`), `bindingSource` and the file
 * marker of `FileField()`. Ajv's strict mode refuses them; OpenAPI documents must not show them.
 */
export const weftKeywords: ReadonlySet<string> = new Set([
  'uri',
  'query',
  'header',
  'cookie',
  'form',
  'json',
  'xml',
  'msgpack',
  'cbor',
  'respHeader',
  'params',
  'reqHeader',
  'bindingSource',
  fileMarker,
])

/** The keywords of JSON Schema whose values are subschemas (one, a list, or a map of them). */
const oneChild = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']
const listChildren = ['anyOf', 'oneOf', 'allOf', 'prefixItems']
const mapChildren = ['properties', 'patternProperties', '$defs', 'definitions']

/** Calls `visit` on every subschema of `schema` (not on `schema` itself). */
export function forEachChild(schema: TSchema, visit: (child: TSchema) => void): void {
  const n = node(schema)
  for (const key of oneChild) {
    const child = n[key]
    if (typeof child === 'object' && child !== null) visit(child as TSchema)
  }
  for (const key of listChildren) {
    const list = n[key]
    if (Array.isArray(list)) for (const child of list) if (typeof child === 'object' && child !== null) visit(child)
  }
  for (const key of mapChildren) {
    const map = n[key]
    if (typeof map === 'object' && map !== null) {
      for (const child of Object.values(map)) if (typeof child === 'object' && child !== null) visit(child)
    }
  }
}

const tagged = new WeakMap<object, boolean>()

/**
 * Whether `schema` uses any Weft keyword, at any depth (or `aliasTag`, the app's own tag). Such a
 * route schema is validated and bound by Weft; any other stays with Fastify's Ajv.
 */
export function hasWeftKeywords(schema: unknown, aliasTag?: string): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  if (aliasTag === undefined) {
    const known = tagged.get(schema)
    if (known !== undefined) return known
  }
  let found = false
  const visit = (s: TSchema): void => {
    if (found) return
    for (const key of Object.keys(s)) {
      if (weftKeywords.has(key) || key === aliasTag) {
        found = true
        return
      }
    }
    forEachChild(s, visit)
  }
  visit(schema as TSchema)
  if (aliasTag === undefined) tagged.set(schema, found)
  return found
}

/** Whether `schema` uses the keyword `name` at any depth. */
function usesKeyword(schema: TSchema, name: string): boolean {
  let found = false
  const visit = (s: TSchema): void => {
    if (found) return
    if (Object.hasOwn(s, name)) {
      found = true
      return
    }
    forEachChild(s, visit)
  }
  visit(schema)
  return found
}

/**
 * The tag a route's params or headers schema is read with: `uri`/`header` (`bind().uri()`,
 * `bind().header()`), or `params`/`reqHeader` (`@weft/context`'s parsers) when the schema uses
 * only those. `undefined`: the part's usual tag.
 */
export function secondaryTagOf(schema: TSchema, part: string): string | undefined {
  if (part === 'params') return !usesKeyword(schema, 'uri') && usesKeyword(schema, 'params') ? 'params' : undefined
  if (part === 'headers') {
    return !usesKeyword(schema, 'header') && usesKeyword(schema, 'reqHeader') ? 'reqHeader' : undefined
  }
  return undefined
}
