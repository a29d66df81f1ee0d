import type { FastifyInstance, HTTPMethods } from 'fastify'
import type { JsonSchema } from '../inputs/schema-values.js'

/** The part of an OpenAPI 3 document the fuzzer reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>
  components?: Record<string, unknown>
}

interface RawOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[]
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> }
  responses?: Record<string, DocumentedResponse>
  security?: unknown[]
}

/** One documented response (by status code, `4XX`-style range or `default`). */
export interface DocumentedResponse {
  content?: Record<string, { schema?: JsonSchema }>
}

/** A parameter of an operation, its schema dereferenced. */
export interface ApiParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required: boolean
  schema: JsonSchema
}

/** One operation of the document, dereferenced, with its path in Fastify's `:param` form. */
export interface ApiOperation {
  /** `POST /api/auth/login`, as the document spells the path. */
  name: string
  method: HTTPMethods
  path: string
  parameters: ApiParameter[]
  body?: { schema: JsonSchema; contentTypes: string[]; required: boolean }
  /** Needs a bearer token (the operation, or the document, declares `security`). */
  secured: boolean
  responses: Record<string, DocumentedResponse>
}

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head'])

/**
 * Replaces every local `$ref` (`#/components/...`) with what it points at. By hand: the documents only
 * use local refs to `components`, and the fuzzer needs the plain schemas to generate from, not a resolver.
 */
export function dereference<T>(root: unknown, value: T, depth = 0): T {
  if (depth > 50) throw new Error('$ref nesting deeper than 50: a cycle?')
  if (Array.isArray(value)) return value.map((v) => dereference(root, v, depth + 1)) as T
  if (value === null || typeof value !== 'object') return value
  const ref = (value as { $ref?: unknown }).$ref
  if (typeof ref === 'string') {
    if (!ref.startsWith('#/')) throw new Error(`non-local $ref ${ref}`)
    const target = ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root)
    if (target === undefined) throw new Error(`$ref ${ref} points at nothing`)
    return dereference(root, target as T, depth + 1)
  }
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, dereference(root, v, depth + 1)]),
  ) as T
}

/** The app's OpenAPI document, as `@fastify/swagger` builds it from the route schemas (after `ready()`). */
export function documentOf(app: FastifyInstance): OpenApiDocument {
  const withSwagger = app as FastifyInstance & { swagger?: () => unknown }
  if (typeof withSwagger.swagger !== 'function') throw new Error('the app has no @fastify/swagger document')
  // A deep copy: the fuzzer must not share objects with the app's own document.
  return JSON.parse(JSON.stringify(withSwagger.swagger())) as OpenApiDocument
}

/** Every operation of the document, dereferenced. */
export function operationsOf(document: OpenApiDocument): ApiOperation[] {
  const operations: ApiOperation[] = []
  const globalSecurity = (document as { security?: unknown[] }).security
  for (const [docPath, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!methods.has(method)) continue
      const op = dereference(document, raw)
      const content = op.requestBody?.content ?? {}
      const contentTypes = Object.keys(content)
      const bodySchema = contentTypes.map((t) => content[t]?.schema).find((s) => s !== undefined)
      const security = op.security ?? globalSecurity ?? []
      operations.push({
        name: `${method.toUpperCase()} ${docPath}`,
        method: method.toUpperCase() as HTTPMethods,
        path: docPath.replace(/\{([^}]+)\}/g, ':$1'),
        parameters: (op.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in as ApiParameter['in'],
          required: p.required === true,
          schema: p.schema ?? {},
        })),
        ...(bodySchema
          ? { body: { schema: bodySchema, contentTypes, required: op.requestBody?.required === true } }
          : {}),
        secured: security.length > 0,
        responses: op.responses ?? {},
      })
    }
  }
  return operations
}
