import swagger from '@fastify/swagger'
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { documentedSchema, FileField, weftBinding, weftKeywords, weftSwaggerTransform } from './index.js'

const Search = Type.Object({
  dryRun: Type.Boolean({ query: 'dry_run', default: false, description: 'only check' }),
  colors: Type.Array(Type.String(), { query: 'colors' }),
  limit: Type.Optional(Type.Integer({ query: 'limit', maximum: 100 })),
  price: Type.Optional(Type.Object({ min: Type.Number(), max: Type.Optional(Type.Number()) }, { query: 'price' })),
  token: Type.String({ query: 'token', header: 'X-Token', bindingSource: 'header,query' }),
})
const Params = Type.Object({ id: Type.Integer({ uri: 'product_id' }) })
const Headers = Type.Object({ requestId: Type.Optional(Type.String({ header: 'X-Request-Id' })) })
const Body = Type.Object({
  title: Type.String({ json: 'Title', minLength: 1 }),
  meta: Type.Object({ createdBy: Type.String({ json: 'created_by' }) }),
})
const Upload = Type.Object({ name: Type.String({ form: 'full_name' }), avatar: FileField({ form: 'avatar' }) })

async function documentOf(register: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 't', version: '1' } }, transform: weftSwaggerTransform })
  await app.register(weftBinding)
  register(app)
  await app.ready()
  return app.swagger() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> }
}

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, into)
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      into.add(key)
      keysOf(child, into)
    }
  }
  return into
}

describe('OpenAPI documents of Weft route schemas (@fastify/swagger)', () => {
  it('names parameters as clients send them, with no Weft keyword, and the types Weft accepts', async () => {
    const doc = await documentOf((app) => {
      app.put(
        '/products/:product_id',
        { schema: { querystring: Search, params: Params, headers: Headers, body: Body } },
        () => 'ok',
      )
    })
    const operation = doc.paths['/products/{product_id}']?.put as {
      parameters: { in: string; name: string; required: boolean; schema: Record<string, unknown> }[]
      requestBody: { content: { 'application/json': { schema: Record<string, unknown> } } }
    }
    const parameters = Object.fromEntries(operation.parameters.map((p) => [`${p.in}:${p.name}`, p]))
    expect(Object.keys(parameters).sort()).toEqual([
      'header:X-Request-Id',
      'path:product_id',
      'query:colors',
      'query:dry_run',
      'query:limit',
      'query:price[max]',
      'query:price[min]',
      'query:token',
    ])
    expect(parameters['query:dry_run']).toMatchObject({ required: false, schema: { type: 'boolean', default: false } })
    expect(parameters['query:colors']).toMatchObject({
      required: true,
      schema: { type: 'array', items: { type: 'string' } },
    })
    expect(parameters['query:price[min]']).toMatchObject({ required: false, schema: { type: 'number' } })
    expect(parameters['path:product_id']).toMatchObject({ required: true, schema: { type: 'integer' } })
    expect(operation.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        Title: { type: 'string', minLength: 1 },
        meta: { type: 'object', properties: { created_by: { type: 'string' } }, required: ['created_by'] },
      },
      required: ['Title', 'meta'],
    })
    const keys = keysOf(doc)
    for (const keyword of weftKeywords) expect(keys.has(keyword), keyword).toBe(false)
  })

  it('documents a form with files as multipart under the form names', () => {
    expect(documentedSchema(Upload, 'body')).toEqual({
      type: 'object',
      properties: { full_name: { type: 'string' }, avatar: { type: 'string', format: 'binary' } },
      required: ['full_name', 'avatar'],
    })
  })

  it('leaves untagged schemas exactly as they were', async () => {
    const Plain = Type.Object({ page: Type.Integer() })
    expect(documentedSchema(Plain, 'querystring')).toBe(Plain)
  })

  it("boots beside TypeBox's own validator compiler: untagged routes keep it, tagged ones bind through Weft", async () => {
    const app = Fastify()
    app.setValidatorCompiler(TypeBoxValidatorCompiler)
    await app.register(weftBinding)
    app.get('/plain', { schema: { querystring: Type.Object({ page: Type.Integer() }) } }, (request) => request.query)
    app.get('/search', { schema: { querystring: Search } }, (request) => request.query)
    expect((await app.inject('/search?dry_run=on&colors=a&token=t')).json()).toEqual({
      dryRun: true,
      colors: ['a'],
      token: 't',
    })
    expect((await app.inject('/plain?page=2')).json()).toEqual({ page: 2 })
    expect((await app.inject('/plain?page=x')).statusCode).toBe(400)
  })
})
