import swagger from '@fastify/swagger'
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { bind, documentedSchema, FileField, weftBinding, weftKeywords, weftSwaggerTransform } from './index.js'

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

/** The query and path parameters `Search` and `Params` document, as `in:name`. */
const searchParameters = [
  'path:product_id',
  'query:colors',
  'query:dry_run',
  'query:limit',
  'query:price[max]',
  'query:price[min]',
  'query:token',
]

async function documentOf(register: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 't', version: '1' } }, transform: weftSwaggerTransform })
  await app.register(weftBinding)
  register(app)
  await app.ready()
  return app.swagger() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> }
}

describe('a body with files', () => {
  it('is documented as a multipart form, unless the route says what it consumes', async () => {
    const doc = await documentOf((app) => {
      app.post('/upload', { schema: { body: Upload } }, () => 'ok')
      app.post('/upload-any', { schema: { body: Upload, consumes: ['application/octet-stream'] } }, () => 'ok')
      app.post('/json', { schema: { body: Type.Object({ name: Type.String({ json: 'full_name' }) }) } }, () => 'ok')
    })
    const content = (path: string) => {
      const body = doc.paths[path]?.post?.requestBody as { content: object } | undefined
      return Object.keys(body?.content ?? {})
    }
    expect(content('/upload')).toEqual(['multipart/form-data'])
    expect(content('/upload-any')).toEqual(['application/octet-stream'])
    expect(content('/json')).toEqual(['application/json'])
  })
})

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
    expect(Object.keys(parameters).sort()).toEqual(['header:X-Request-Id', ...searchParameters])
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

describe('documents without weftSwaggerTransform', () => {
  type Doc = { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> }
  const queryNames = (doc: Doc, path: string) =>
    (doc.paths[path]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
  const swaggerOptions = { openapi: { info: { title: 't', version: '1' } } }

  for (const order of ['swagger first', 'weftBinding first'] as const) {
    it(`shows wire names and no Weft keyword with ${order}, and validation keeps the schema as written`, async () => {
      const app = Fastify()
      if (order === 'swagger first') await app.register(swagger, swaggerOptions)
      await app.register(weftBinding)
      if (order === 'weftBinding first') await app.register(swagger, swaggerOptions)
      app.put(
        '/products/:product_id',
        { schema: { querystring: Search, params: Params, body: Body } },
        async (request) => ({
          query: request.query,
          params: request.params,
          bound: await bind(request).query(Search),
          sameSchema: request.routeOptions.schema?.querystring === Search,
        }),
      )
      await app.ready()
      const doc = app.swagger() as unknown as Doc
      const put = doc.paths['/products/{product_id}']?.put as unknown as Record<string, unknown>
      const names = (put.parameters as { in: string; name: string }[]).map((p) => `${p.in}:${p.name}`).sort()
      expect(names).toEqual(searchParameters)
      for (const keyword of weftKeywords) expect(keysOf(doc.paths).has(keyword)).toBe(false)
      expect(keysOf(doc.paths).has('Title')).toBe(true)

      const res = await app.inject({
        method: 'PUT',
        url: '/products/7?dry_run=on&colors=a&token=t',
        payload: { Title: 'x', meta: { created_by: 'me' } },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        query: { dryRun: true, colors: ['a'], token: 't' },
        params: { id: 7 },
        bound: { dryRun: true, colors: ['a'], token: 't' },
        sameSchema: true,
      })
      const bad = await app.inject({ method: 'PUT', url: '/products/x?colors=a&token=t', payload: {} })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().code).toBe('WEFT_BIND_ERROR')
    })
  }

  it('documents the routes of a scope with its own weftBinding, and gives a transform of your own the wire names', async () => {
    const seen: string[] = []
    const app = Fastify()
    await app.register(swagger, {
      ...swaggerOptions,
      transform: ({ schema, url }: { schema: unknown; url: string }) => {
        const query = (schema as { querystring?: { properties?: object } }).querystring
        if (query?.properties) seen.push(...Object.keys(query.properties))
        return { schema, url } as never
      },
    })
    await app.register(async (scope) => {
      await scope.register(weftBinding)
      scope.get('/search', { schema: { querystring: Search } }, (request) => request.query)
    })
    await app.ready()
    const doc = app.swagger() as unknown as Doc
    expect(queryNames(doc, '/search')).toContain('dry_run')
    expect(queryNames(doc, '/search')).not.toContain('dryRun')
    expect(seen).toContain('dry_run')
    expect(seen).not.toContain('dryRun')
  })

  it('is the same document as with weftSwaggerTransform, which stays harmless', async () => {
    const documentWith = async (transform: boolean) => {
      const app = Fastify()
      await app.register(swagger, transform ? { ...swaggerOptions, transform: weftSwaggerTransform } : swaggerOptions)
      await app.register(weftBinding)
      app.put(
        '/products/:product_id',
        { schema: { querystring: Search, params: Params, headers: Headers, body: Body } },
        () => 'ok',
      )
      app.post('/upload', { schema: { body: Upload } }, () => 'ok')
      await app.ready()
      return app.swagger()
    }
    expect(await documentWith(false)).toEqual(await documentWith(true))
  })
})
