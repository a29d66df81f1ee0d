import type { RouteOptions } from 'fastify'
import FindMyWay from 'find-my-way'
import type { TSchema } from 'typebox'
import { bindingSources } from './binding-source.js'
import { BindingSetupError } from './errors.js'
import { isObjectSchema, node, tagOf } from './schema.js'

const PARTS = ['params', 'querystring', 'headers', 'body'] as const

/**
 * Checks a route's schemas as the route is added, so that a mistake in them fails the boot, naming
 * the route and the schema, instead of reaching a client: an unknown `bindingSource` name, and a
 * required `params` field the path has no parameter for (every request would be refused).
 */
export function checkRouteSchemas(route: RouteOptions): void {
  const schema = route.schema
  if (schema === undefined) return
  const where = (part: string) =>
    `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url} schema.${part}`
  for (const part of PARTS) {
    const partSchema = schema[part]
    if (partSchema === null || typeof partSchema !== 'object') continue
    try {
      bindingSources(partSchema as TSchema)
    } catch (error) {
      if (!(error instanceof BindingSetupError)) throw error
      throw new BindingSetupError(error.code, `${where(part)}: ${error.message}`)
    }
  }
  const params = schema.params as TSchema | undefined
  if (params !== null && typeof params === 'object' && isObjectSchema(params)) checkParams(params, route, where)
}

/** The parameters of a route path, read by the router Fastify uses; `undefined` for a path it refuses. */
function pathParameters(url: string): readonly string[] | undefined {
  const router = FindMyWay()
  try {
    router.on('GET', url, () => {})
    return router.findRoute('GET', url)?.params
  } catch {
    // Fastify itself refuses the path, with its own message
    return undefined
  }
}

function checkParams(schema: TSchema, route: RouteOptions, where: (part: string) => string): void {
  const names = pathParameters(route.url)
  if (names === undefined) return
  const properties = node(schema).properties ?? {}
  for (const prop of node(schema).required ?? []) {
    const child = properties[prop]
    const tag = child === undefined ? undefined : (tagOf(child, 'uri') ?? tagOf(child, 'params'))
    const wire = tag ?? prop
    // any name the field may be read by counts: an alias tag of the app (`setAliasTag`) is one
    // of its options, and may be set after the route is declared. The property's own name counts
    // only for a field without a tag: `{ uri: 'user_id' }` is never read as `id`.
    const readBy = tag === undefined ? [prop, ...namesOf(child)] : namesOf(child)
    if (readBy.some((name) => names.includes(name))) continue
    const has = names.length === 0 ? 'has no parameters' : `has ${names.map((name) => `:${name}`).join(', ')}`
    throw new BindingSetupError(
      'WEFT_PARAM_NOT_IN_PATH',
      `${where('params')}: the required field "${prop}" reads the path parameter "${wire}", which the path does not have (it ${has}), so every request would be refused`,
    )
  }
}

/** The string values of a field schema's own options: the names a tag may give it. */
function namesOf(schema: TSchema | undefined): string[] {
  if (schema === undefined) return []
  return Object.values(node(schema)).filter((value): value is string => typeof value === 'string')
}
