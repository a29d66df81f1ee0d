import { AjvCompiler } from '@fastify/ajv-compiler'
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler, FastifyServerOptions, RouteOptions } from 'fastify'
import type { TSchema } from 'typebox'
import { type BindingConfig, configOf } from './config.js'
import { documentRoutesWhenReady } from './documented-routes.js'
import { BindingSetupError } from './errors.js'
import { type RoutePart, weftPartValidator } from './route-validator.js'
import { isObjectSchema } from './schema.js'
import { hasWeftKeywords } from './weft-keywords.js'

/** The options of Fastify's own Ajv (`Fastify({ ajv })`), for the untagged parts of a Weft route. */
export type AjvOptions = FastifyServerOptions['ajv']

const parts = ['body', 'querystring', 'query', 'params', 'headers'] as const

// One pool, as Fastify keeps one: compilers are shared by equal shared schemas and options.
const ajvPool = AjvCompiler()

/**
 * Makes the routes declared in `fastify`'s scope (after this call) validate and bind the parts of
 * their `schema` written with Weft's tags through Weft, in Fastify's validation phase. A route with
 * no tagged part, or with a `validatorCompiler` of its own, is left to Fastify as it is; the
 * untagged parts of a route that has tagged ones are compiled by Fastify's Ajv with Fastify's
 * defaults (plus `ajv`, the options the app gave `Fastify({ ajv })`) and the scope's shared schemas.
 */
export function installRouteSchemas(
  fastify: FastifyInstance,
  mode: RouteSchemasMode,
  ajv: AjvOptions | undefined,
): void {
  const document = documentRoutesWhenReady(fastify)
  fastify.addHook('onRoute', function weftRouteSchemas(this: FastifyInstance, route: RouteOptions) {
    const schema = route.schema as Record<string, unknown> | undefined
    const aliasTag = configOfInstance(this).aliasTag
    checkSharedSchemas(this, aliasTag)
    if (schema === undefined || schema === null || route.validatorCompiler !== undefined) return
    checkRefs(route, schema, aliasTag)
    const weft = (part: unknown) => hasWeftKeywords(part, aliasTag) || (mode === 'all' && isPlainObjectSchema(part))
    if (!parts.some((part) => weft(schema[part]))) return
    route.validatorCompiler = routeCompiler(this, ajv, weft)
    document(route)
  })
}

/**
 * Which route schemas Weft validates and binds: `'tagged'` those with Weft's keywords, `'all'` every
 * object schema too (its property names are the wire names), so that an app answers one set of
 * codes; schemas with a `$ref` stay with Ajv, which resolves them.
 */
export type RouteSchemasMode = 'tagged' | 'all'

/**
 * A shared schema (`addSchema`) written with Weft's tags: no route can refer to it (see below), and
 * `@fastify/swagger` copies shared schemas into the document's components as they are, with Weft's
 * keywords and property names, which is not valid OpenAPI. Checked as each route is declared.
 */
function checkSharedSchemas(instance: FastifyInstance, aliasTag: string | undefined): void {
  for (const [id, shared] of Object.entries(instance.getSchemas())) {
    if (!hasWeftKeywords(shared, aliasTag)) continue
    throw new BindingSetupError(
      'WEFT_SCHEMA_REF',
      `the shared schema "${id}" (addSchema) is written with Weft's tags: routes cannot refer to it, and @fastify/swagger would document it with Weft's keywords. Use the TypeBox value in the routes' schemas instead of adding it`,
    )
  }
}

/**
 * A part written with Weft's tags that refers to a shared schema (`Type.Ref`): binding reads fields
 * from the schema it is given and does not resolve references, so the route would refuse every
 * request. It fails as the route is declared, saying what to do.
 */
function checkRefs(route: RouteOptions, schema: Record<string, unknown>, aliasTag: string | undefined): void {
  for (const part of parts) {
    const value = schema[part]
    if (typeof value !== 'object' || value === null || !hasWeftKeywords(value, aliasTag)) continue
    if (!JSON.stringify(value).includes('"$ref"')) continue
    const method = Array.isArray(route.method) ? route.method.join(',') : route.method
    throw new BindingSetupError(
      'WEFT_SCHEMA_REF',
      `${method} ${route.url} schema.${part}: a schema written with Weft's tags cannot refer to a shared schema ($ref, Type.Ref): binding reads the fields of the schema it is given. Use the schema itself (the TypeBox value) where the reference is`,
    )
  }
}

/** An object schema Weft can bind on its own (no `$ref` to resolve). */
function isPlainObjectSchema(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || !isObjectSchema(schema as TSchema)) return false
  return !JSON.stringify(schema).includes('"$ref"')
}

function routeCompiler(
  instance: FastifyInstance,
  ajv: AjvOptions | undefined,
  weft: (schema: unknown) => boolean,
): FastifySchemaCompiler<FastifySchema> {
  let fallback: FastifySchemaCompiler<FastifySchema> | undefined
  const config = () => configOfInstance(instance)
  return (definition) => {
    const { schema, httpPart } = definition
    if (isPart(httpPart) && weft(schema)) {
      return weftPartValidator(schema as TSchema, httpPart, config) as never
    }
    fallback ??= ajvPool(instance.getSchemas() as never, {
      customOptions: ajv?.customOptions ?? {},
      plugins: (ajv?.plugins ?? []) as never,
      ...(ajv?.onCreate === undefined ? {} : { onCreate: ajv.onCreate as never }),
    }) as unknown as FastifySchemaCompiler<FastifySchema>
    // Fastify lower-cases a header schema's names for its own compiler, not for a route's
    const own = httpPart === 'headers' ? lowerCaseHeaderNames(schema) : schema
    return fallback({ ...definition, schema: own as FastifySchema })
  }
}

/** The configuration `instance` binds with (read, never created). */
function configOfInstance(instance: FastifyInstance): BindingConfig {
  return configOf({ server: instance } as never)
}

function isPart(part: string | undefined): part is RoutePart {
  return part === 'body' || part === 'querystring' || part === 'params' || part === 'headers'
}

/** A header schema with its property names lower-cased, as Node gives request headers. */
function lowerCaseHeaderNames(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema
  const s = schema as { properties?: Record<string, unknown>; required?: unknown }
  if (s.properties === undefined) return schema
  const properties: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(s.properties)) properties[name.toLowerCase()] = value
  const required = Array.isArray(s.required) ? s.required.map((name) => String(name).toLowerCase()) : s.required
  return { ...schema, properties, ...(required === undefined ? {} : { required }) }
}
