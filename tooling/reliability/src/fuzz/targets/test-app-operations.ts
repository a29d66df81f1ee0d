import type { HTTPMethods } from 'fastify'
import { Caller, Item, ItemParams, Search } from '../../test-app/app.js'
import type { JsonSchema } from '../inputs/schema-values.js'
import type { ApiOperation, ApiParameter } from '../openapi/document.js'

/**
 * The test app's operations with the schemas its routes bind (TypeBox schemas are JSON Schema), written
 * out because the test app has no OpenAPI document: it is a plain Fastify app showing the packages as
 * their READMEs do. Responses are not documented; its oracle is Fastify's error shape.
 */
const properties = (schema: unknown) => (schema as JsonSchema).properties ?? {}

/** Parameters from an object schema; `where` is TypeBox's option naming the source (`query: 'id'`). */
function parametersOf(
  schema: unknown,
  at: ApiParameter['in'],
  where?: 'query' | 'header' | 'cookie' | 'uri',
): ApiParameter[] {
  const required = new Set((schema as JsonSchema).required ?? [])
  return Object.entries(properties(schema)).flatMap(([key, inner]) => {
    const renamed = where ? (inner as Record<string, unknown>)[where] : undefined
    if (where && where !== 'query' && renamed === undefined) return []
    return [{ name: typeof renamed === 'string' ? renamed : key, in: at, required: required.has(key), schema: inner }]
  })
}

const op = (method: HTTPMethods, path: string, rest: Partial<ApiOperation> = {}): ApiOperation => ({
  name: `${method} ${path}`,
  method,
  path: path.replace(/\{([^}]+)\}/g, ':$1'),
  parameters: [],
  secured: false,
  responses: {},
  ...rest,
})

const query = (name: string, schema: JsonSchema): ApiParameter => ({ name, in: 'query', required: false, schema })

export const testAppOperations: ApiOperation[] = [
  op('GET', '/inspect', {
    parameters: [
      query('q', { type: 'string' }),
      query('n', { type: 'integer' }),
      query('f', { type: 'number' }),
      query('b', { type: 'boolean' }),
    ],
  }),
  op('GET', '/items/{id}', {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
  }),
  op('GET', '/items/{id}/bound', { parameters: parametersOf(ItemParams, 'path', 'uri') }),
  op('GET', '/search', { parameters: parametersOf(Search, 'query', 'query') }),
  op('GET', '/caller', {
    parameters: [...parametersOf(Caller, 'header', 'header'), ...parametersOf(Caller, 'cookie', 'cookie')],
  }),
  op('GET', '/list', {
    parameters: [
      query('page', { type: 'integer', minimum: 1 }),
      query('limit', { type: 'integer', minimum: 1, maximum: 100 }),
      query('offset', { type: 'integer', minimum: 0 }),
      query('sort', { type: 'string', enum: ['id', '-id', 'name', '-name'] }),
      query('cursor', { type: 'string' }),
    ],
  }),
  op('POST', '/items', {
    body: { schema: Item as unknown as JsonSchema, contentTypes: ['application/json'], required: true },
  }),
]
