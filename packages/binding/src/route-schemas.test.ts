import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { multipart } from '../test/helpers.js'
import { createConfig } from './config.js'
import { bind, bodyBytes, FileField, setParserDecoder, type WeftBindingOptions, weftBinding } from './index.js'
import { weftPartValidator } from './route-validator.js'

const Search = Type.Object({
  dryRun: Type.Boolean({ query: 'dry_run', default: false }),
  colors: Type.Array(Type.String(), { query: 'colors', default: [] }),
  limit: Type.Integer({ query: 'limit', default: 20, maximum: 100 }),
  price: Type.Optional(Type.Object({ min: Type.Number(), max: Type.Optional(Type.Number()) }, { query: 'price' })),
})

async function app(options: WeftBindingOptions = {}, setup?: (app: FastifyInstance) => unknown) {
  const fastify = Fastify()
  await fastify.register(weftBinding, options)
  await setup?.(fastify)
  return fastify
}

describe('route schemas with Weft tags', () => {
  it('boots (no "unknown keyword" from Ajv) and binds the query before the handler', async () => {
    const fastify = await app({ enableSplittingOnParsers: true })
    fastify.get('/search', { schema: { querystring: Search } }, (request) => request.query)
    const res = await fastify.inject('/search?dry_run=1&colors=red,blue&colors[]=green&price[min]=2.5')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ dryRun: true, colors: ['red', 'blue', 'green'], limit: 20, price: { min: 2.5 } })
  })

  it('hooks see the bound values too', async () => {
    const fastify = await app()
    let seen: unknown
    fastify.addHook('preHandler', async (request) => {
      seen = request.query
    })
    fastify.get('/search', { schema: { querystring: Search } }, () => 'ok')
    await fastify.inject('/search?dry_run=true&limit=5')
    expect(seen).toEqual({ dryRun: true, colors: [], limit: 5 })
  })

  it('answers a conversion failure with the code and message bind() gives', async () => {
    const fastify = await app()
    fastify.get('/search', { schema: { querystring: Search } }, () => 'ok')
    fastify.get('/bind', (request) => bind(request).query(Search))
    for (const url of ['/search?limit=abc', '/bind?limit=abc']) {
      const res = await fastify.inject(url)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'WEFT_BIND_ERROR',
        message: 'cannot bind query field "limit": "abc" is not an integer',
      })
    }
  })

  it('answers a constraint failure with WEFT_VALIDATION_FAILED on both paths', async () => {
    const fastify = await app()
    fastify.get('/search', { schema: { querystring: Search } }, () => 'ok')
    fastify.get('/bind', (request) => bind(request).query(Search))
    const answers = await Promise.all(['/search?limit=500', '/bind?limit=500'].map((url) => fastify.inject(url)))
    for (const res of answers) {
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'WEFT_VALIDATION_FAILED',
        message: expect.stringMatching(/^query\/limit /),
      })
    }
    expect(answers[0]?.json()).toEqual(answers[1]?.json())
  })

  it("keeps Fastify's attachValidation: the handler gets the Weft error", async () => {
    const fastify = await app()
    fastify.get('/search', { schema: { querystring: Search }, attachValidation: true }, (request) => ({
      code: (request.validationError as { code?: string } | undefined)?.code,
    }))
    expect((await fastify.inject('/search?limit=x')).json()).toEqual({ code: 'WEFT_BIND_ERROR' })
  })

  it('binds path params with uri tags', async () => {
    const fastify = await app()
    const Params = Type.Object({ id: Type.Integer({ uri: 'product_id', minimum: 1 }) })
    fastify.get('/products/:product_id', { schema: { params: Params } }, (request) => request.params)
    expect((await fastify.inject('/products/42')).json()).toEqual({ id: 42 })
    const bad = await fastify.inject('/products/0')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('WEFT_VALIDATION_FAILED')
  })

  it('binds headers with header tags, names matched case-insensitively', async () => {
    const fastify = await app()
    const Headers = Type.Object({
      token: Type.String({ header: 'X-Token' }),
      retries: Type.Integer({ header: 'X-Retries', default: 3 }),
    })
    // Fastify keeps the raw headers on request.headers and adds the validated fields to them
    fastify.get('/h', { schema: { headers: Headers } }, (request) => request.headers)
    expect((await fastify.inject({ url: '/h', headers: { 'x-token': 'abc' } })).json()).toMatchObject({
      token: 'abc',
      retries: 3,
    })
    const missing = await fastify.inject('/h')
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toMatchObject({ code: 'WEFT_VALIDATION_FAILED', message: 'header/X-Token is required' })
  })

  it('binds a JSON body with json tags and defaults', async () => {
    const fastify = await app()
    const Body = Type.Object({
      title: Type.String({ json: 'Title', minLength: 1 }),
      draft: Type.Boolean({ default: true }),
    })
    fastify.post('/posts', { schema: { body: Body } }, (request) => request.body)
    const res = await fastify.inject({ method: 'POST', url: '/posts', payload: { Title: 'Hi' } })
    expect(res.json()).toEqual({ title: 'Hi', draft: true })
    const bad = await fastify.inject({ method: 'POST', url: '/posts', payload: { Title: 5 } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('WEFT_BIND_ERROR')
  })

  it('binds a form body, and a multipart one with files, by Content-Type', async () => {
    const fastify = await app()
    const Body = Type.Object({
      name: Type.String({ form: 'full_name', json: 'full_name' }),
      tags: Type.Array(Type.String(), { form: 'tags', default: [] }),
      avatar: Type.Optional(FileField({ form: 'avatar' })),
    })
    fastify.post('/people', { schema: { body: Body } }, (request) => {
      const body = request.body as { name: string; tags: string[]; avatar?: { filename: string } }
      return { name: body.name, tags: body.tags, avatar: body.avatar?.filename ?? null }
    })
    const form = await fastify.inject({
      method: 'POST',
      url: '/people',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'full_name=Ada&tags[]=a&tags[]=b',
    })
    expect(form.json()).toEqual({ name: 'Ada', tags: ['a', 'b'], avatar: null })
    const upload = multipart([
      { name: 'full_name', value: 'Grace' },
      { name: 'avatar', filename: 'me.png', type: 'image/png', content: 'PNG' },
    ])
    const res = await fastify.inject({ method: 'POST', url: '/people', ...upload })
    expect(res.json()).toEqual({ name: 'Grace', tags: [], avatar: 'me.png' })
    const json = await fastify.inject({ method: 'POST', url: '/people', payload: { full_name: 'Lin' } })
    expect(json.json()).toEqual({ name: 'Lin', tags: [], avatar: null })
  })

  it('reads the decoder settings of the scope at request time (setParserDecoder after the route)', async () => {
    const fastify = await app()
    fastify.get('/search', { schema: { querystring: Search } }, (request) => request.query)
    setParserDecoder(fastify, { ignoreUnknownKeys: false })
    const res = await fastify.inject('/search?other=1')
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_BIND_ERROR')
  })

  it('bind() of the route schema in the handler gives the value Fastify bound (not defaults)', async () => {
    const fastify = await app()
    const Body = Type.Object({ title: Type.String({ json: 'Title' }) })
    fastify.post('/both', { schema: { querystring: Search, body: Body } }, async (request) => ({
      query: await bind(request).query(Search),
      body: await bind(request).json(Body),
    }))
    const res = await fastify.inject({ method: 'POST', url: '/both?dry_run=true&limit=7', payload: { Title: 'x' } })
    expect(res.json()).toEqual({ query: { dryRun: true, colors: [], limit: 7 }, body: { title: 'x' } })
  })

  it('bind() of the route schema in a hook before the validation reads the request (not yet bound)', async () => {
    const fastify = await app()
    const Params = Type.Object({ id: Type.Integer({ uri: 'shop_id', minimum: 1 }) })
    const Body = Type.Object({ title: Type.String({ json: 'Title' }) })
    const seen: Record<string, unknown> = {}
    const onRequest = async (request: FastifyRequest) => {
      seen.onRequest = [await bind(request).uri(Params), await bind(request).query(Search)]
    }
    const preValidation = async (request: FastifyRequest) => {
      seen.preValidation = [await bind(request).uri(Params), await bind(request).json(Body)]
    }
    fastify.post(
      '/shops/:shop_id',
      { schema: { params: Params, querystring: Search, body: Body }, onRequest, preValidation },
      async (request) => ({ params: request.params, body: request.body }),
    )
    const res = await fastify.inject({ method: 'POST', url: '/shops/7?dry_run=true', payload: { Title: 'x' } })
    expect(res.json()).toEqual({ params: { id: 7 }, body: { title: 'x' } })
    expect(seen).toEqual({
      onRequest: [{ id: 7 }, { dryRun: true, colors: [], limit: 20 }],
      preValidation: [{ id: 7 }, { title: 'x' }],
    })
  })
})

describe('a request whose parser kept the body and whose validation bound its parts', () => {
  it('keeps the bytes, and bind() in the handler returns the bound parts', async () => {
    const fastify = await app()
    const Body = Type.Object({ title: Type.String({ json: 'Title' }) })
    fastify.post('/notes', { schema: { querystring: Search, body: Body } }, async (request) => ({
      kept: bodyBytes(request)?.toString('utf8'),
      query: await bind(request).query(Search),
      body: await bind(request).json(Body),
      same: (await bind(request).json(Body)) === request.body,
    }))
    const payload = '{"Title":"x"}'
    const res = await fastify.inject({
      method: 'POST',
      url: '/notes?limit=3',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    expect(res.json()).toEqual({
      kept: payload,
      query: { dryRun: false, colors: [], limit: 3 },
      body: { title: 'x' },
      same: true,
    })
  })
})

describe('route schemas without Weft tags', () => {
  it("stay with Fastify's Ajv: coercion, its error code and message", async () => {
    const fastify = await app()
    const Plain = Type.Object({ page: Type.Integer({ minimum: 1 }) })
    fastify.get('/plain', { schema: { querystring: Plain } }, (request) => request.query)
    expect((await fastify.inject('/plain?page=3')).json()).toEqual({ page: 3 })
    const bad = await fastify.inject('/plain?page=0')
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 'FST_ERR_VALIDATION', message: 'querystring/page must be >= 1' })
  })

  it("an untagged part of a route with a tagged one behaves as Fastify's Ajv (headers by lower-cased name)", async () => {
    const fastify = await app()
    const Plain = Type.Object({ 'X-Page': Type.Integer({ minimum: 1 }) })
    // the same route in an app without Weft, its query schema untagged: Fastify's own answer
    const plainOnly = Fastify()
    plainOnly.get('/mixed', { schema: { headers: Plain } }, (request) => ({
      page: (request.headers as Record<string, unknown>)['x-page'],
    }))
    for (const server of [fastify]) {
      server.get('/mixed', { schema: { headers: Plain, querystring: Search } }, (request) => ({
        page: (request.headers as Record<string, unknown>)['x-page'],
      }))
    }
    for (const server of [fastify, plainOnly]) {
      const ok = await server.inject({ url: '/mixed', headers: { 'x-page': '2' } })
      expect(ok.json()).toEqual({ page: 2 })
    }
    const bad = await fastify.inject({ url: '/mixed', headers: { 'x-page': 'x' } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 'FST_ERR_VALIDATION', message: 'headers/x-page must be integer' })
  })

  it('routeSchemas: false leaves tagged schemas to Fastify (Ajv refuses the keyword at boot)', async () => {
    const fastify = await app({ routeSchemas: false })
    fastify.get('/search', { schema: { querystring: Search } }, () => 'ok')
    await expect(fastify.ready()).rejects.toThrow(/unknown keyword/)
  })
})

describe('route schemas with Weft tags: setup mistakes', () => {
  it('a tagged querystring schema that is not an object fails the boot, naming the route', async () => {
    const fastify = await app()
    fastify.get('/search', { schema: { querystring: Type.String({ query: 'q' }) } }, () => 'ok')
    await expect(fastify.ready()).rejects.toThrow(/GET: \/search.*Type\.Object/)
  })

  it.each([
    ['a tagged querystring', { querystring: Type.Object({ limit: Type.Integer({ query: 'limit', default: 'ten' }) }) }],
    ['a tagged body', { body: Type.Object({ title: Type.String({ json: 'title', minLength: 3, default: '' }) }) }],
    [
      'a nested field of a tagged body',
      {
        body: Type.Object({
          page: Type.Object({ size: Type.Integer({ maximum: 50, default: 100 }) }, { json: 'page' }),
        }),
      },
    ],
    [
      'a tagged header',
      { headers: Type.Object({ tries: Type.Integer({ header: 'x-tries', minimum: 1, default: 0 }) }) },
    ],
  ])(
    'a default that breaks its own schema fails the boot (%s), naming the route and the field',
    async (_name, schema) => {
      const fastify = await app()
      fastify.post('/items', { schema }, (request) => request.body)
      const error = await fastify.ready().then(
        () => undefined,
        (failure: Error) => failure,
      )
      expect(error?.message).toMatch(
        /POST: \/items.*the default .* of field "[a-z.]+" does not pass the field's own schema/,
      )
    },
  )

  it('keeps defaults that pass, and the list form of arrays (default: "a|b")', async () => {
    const fastify = await app()
    const Query = Type.Object({
      sizes: Type.Array(Type.Integer(), { query: 'sizes', default: '1|2' }),
      order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { query: 'order', default: 'asc' }),
    })
    fastify.get('/list', { schema: { querystring: Query } }, (request) => request.query)
    expect((await fastify.inject('/list')).json()).toEqual({ sizes: [1, 2], order: 'asc' })
  })

  it("fills an object default's own fields from their defaults, as Fastify's Ajv does", async () => {
    const Options = (tag: 'json' | 'query') =>
      Type.Object({
        paging: Type.Object(
          { size: Type.Integer({ default: 20 }), sort: Type.Optional(Type.String({ default: 'name' })) },
          { default: {}, [tag]: 'paging' },
        ),
      })
    const fastify = await app()
    fastify.post('/route', { schema: { body: Options('json') } }, (request) => request.body)
    fastify.post('/bound', (request) => bind(request).json(Options('json')))
    fastify.get('/query', (request) => bind(request).query(Options('query')))
    // what Fastify's own Ajv makes of the same schema without Weft's tags
    const ajv = Fastify()
    const untagged = Type.Object({
      paging: Type.Object(
        { size: Type.Integer({ default: 20 }), sort: Type.Optional(Type.String({ default: 'name' })) },
        { default: {} },
      ),
    })
    ajv.post('/ajv', { schema: { body: untagged } }, (request) => request.body)
    const expected = (await ajv.inject({ method: 'POST', url: '/ajv', payload: {} })).json()
    expect(expected).toEqual({ paging: { size: 20, sort: 'name' } })
    for (const url of ['/route', '/bound']) {
      expect((await fastify.inject({ method: 'POST', url, payload: {} })).json(), url).toEqual(expected)
    }
    expect((await fastify.inject('/query')).json()).toEqual(expected)
    // a default given per request is a fresh copy: one request's changes never reach the next
    expect((await fastify.inject({ method: 'POST', url: '/route', payload: { paging: { size: 5 } } })).json()).toEqual({
      paging: { size: 5, sort: 'name' },
    })
  })

  it('a default that breaks its schema fails the first bind() call with a 500, never a 400', async () => {
    const fastify = await app()
    const Query = Type.Object({ limit: Type.Integer({ query: 'limit', minimum: 1, default: 0 }) })
    fastify.get('/bound', (request) => bind(request).query(Query))
    const res = await fastify.inject('/bound?limit=5')
    expect([res.statusCode, res.json().code]).toEqual([500, 'WEFT_BAD_DEFAULT'])
  })

  it.each([
    ['a property the path lacks', '/shops/:shopId', Type.Object({ id: Type.String() })],
    ['a uri tag the path lacks', '/shops/:shopId', Type.Object({ shop: Type.String({ uri: 'shop_id' }) })],
    ['a path without parameters', '/shops', Type.Object({ shopId: Type.String({ uri: 'shopId' }) })],
    // the property's name is a parameter of the path, but the tag says to read another
    ['a uri tag naming another parameter', '/users/:id', Type.Object({ id: Type.Integer({ uri: 'user_id' }) })],
    ['a params tag naming another parameter', '/users/:id', Type.Object({ id: Type.Integer({ params: 'user_id' }) })],
  ])('a required params field the path has no parameter for fails the boot (%s)', async (_name, url, params) => {
    const fastify = await app()
    // as the route is declared, as Fastify's own route checks do
    expect(() => fastify.get(url, { schema: { params } }, () => 'ok')).toThrow(
      /GET .* schema\.params: the required field ".+" reads the path parameter/,
    )
  })

  it('a tagged schema that refers to a shared one, or a reference to a tagged shared one, fails the boot', async () => {
    const Addr = Type.Object({ streetName: Type.String({ json: 'street_name' }) }, { $id: 'Addr' })
    const inside = await app()
    inside.addSchema(Type.Object({ streetName: Type.String() }, { $id: 'Addr' }))
    const body = Type.Object({ addr: Type.Ref('Addr', { json: 'the_addr' }) })
    expect(() => inside.post('/addr', { schema: { body } }, (request) => request.body)).toThrow(
      /POST \/addr schema\.body: a schema written with Weft's tags cannot refer to a shared schema/,
    )
    // a shared schema with Weft's tags: no route can use it, and swagger would copy its keywords
    for (const route of [{ schema: { body: Type.Ref('Addr') } }, {}]) {
      const shared = await app()
      shared.addSchema(Addr)
      expect(() => shared.post('/any', route, () => 'ok')).toThrow(
        /the shared schema "Addr" \(addSchema\) is written with Weft's tags/,
      )
    }
    // a shared schema without tags stays with Ajv, which resolves it
    const fastify = await app()
    fastify.addSchema(Type.Object({ street: Type.String() }, { $id: 'Plain' }))
    fastify.post('/plain', { schema: { body: Type.Ref('Plain') } }, (request) => request.body)
    expect((await fastify.inject({ method: 'POST', url: '/plain', payload: { street: 'x' } })).json()).toEqual({
      street: 'x',
    })
  })

  it('accepts params the path has: tags, several in a segment, regular expressions, wildcards, a prefix', async () => {
    const fastify = await app()
    fastify.get(
      '/geo/:lat-:lng/:file.:ext/:id(^\\d+)/*',
      {
        schema: {
          params: Type.Object({
            lat: Type.String(),
            lng: Type.String(),
            name: Type.String({ uri: 'file' }),
            ext: Type.String(),
            id: Type.Integer({ uri: 'id' }),
            rest: Type.String({ uri: '*' }),
            extra: Type.Optional(Type.String()),
          }),
        },
      },
      (request) => request.params,
    )
    await fastify.register(
      async (shops) => {
        shops.get(
          '/items/:itemId',
          { schema: { params: Type.Object({ shopId: Type.String(), itemId: Type.String() }) } },
          (request) => request.params,
        )
      },
      { prefix: '/shops/:shopId' },
    )
    expect((await fastify.inject('/geo/1-2/a.txt/7/x/y')).json()).toEqual({
      lat: '1',
      lng: '2',
      name: 'a',
      ext: 'txt',
      id: 7,
      rest: 'x/y',
    })
    expect((await fastify.inject('/shops/s1/items/i2')).json()).toEqual({ shopId: 's1', itemId: 'i2' })
  })

  it("accepts a params field read by the app's alias tag (setAliasTag)", async () => {
    const fastify = await app({ parserDecoder: { setAliasTag: 'alias' } })
    const params = Type.Object({ shopId: Type.String({ alias: 'shop_id' }) })
    fastify.get('/aliased/:shop_id', { schema: { params } }, (request) => request.params)
    expect((await fastify.inject('/aliased/s1')).json()).toEqual({ shopId: 's1' })
  })
})

describe("routeSchemas: 'all'", () => {
  it('binds untagged object schemas through Weft too: one set of codes for the whole scope', async () => {
    const fastify = await app({ routeSchemas: 'all' })
    const Plain = Type.Object({ page: Type.Integer({ minimum: 1 }), tags: Type.Array(Type.String(), { default: [] }) })
    fastify.get('/plain', { schema: { querystring: Plain } }, (request) => request.query)
    expect((await fastify.inject('/plain?page=3&tags[]=a')).json()).toEqual({ page: 3, tags: ['a'] })
    const bad = await fastify.inject('/plain?page=x')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().code).toBe('WEFT_BIND_ERROR')
    const low = await fastify.inject('/plain?page=0')
    expect(low.json().code).toBe('WEFT_VALIDATION_FAILED')
  })

  it('leaves a schema with a $ref to Ajv, which resolves it', async () => {
    const fastify = await app({ routeSchemas: 'all' })
    fastify.addSchema({ $id: 'Page', type: 'integer', minimum: 1 })
    const Refs = Type.Object({ page: Type.Unsafe<number>({ $ref: 'Page#' }) })
    fastify.get('/refs', { schema: { querystring: Refs } }, (request) => request.query)
    expect((await fastify.inject('/refs?page=2')).json()).toEqual({ page: 2 })
    expect((await fastify.inject('/refs?page=0')).json().code).toBe('FST_ERR_VALIDATION')
  })
})

describe('route schema validators', () => {
  // Fastify validates on its synchronous path when the validator answers at once; a promise
  // costs every request a trip through the microtask queue.
  it('answer a JSON body at once, with the bound value, and a form body with a promise', async () => {
    const Body = Type.Object({ dryRun: Type.Boolean({ json: 'dry_run', default: false }), n: Type.Integer() })
    const validate = weftPartValidator(Body, 'body', createConfig)
    const json = {
      raw: {},
      headers: { 'content-type': 'application/json' },
      body: { n: 3 },
    }
    expect(validate({ n: 3 }, { parentData: json })).toEqual({ value: { dryRun: false, n: 3 } })
    const form = { raw: {}, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'n=4' }
    const outcome = validate('n=4', { parentData: form })
    expect(outcome).toBeInstanceOf(Promise)
    await expect(outcome).resolves.toBe(true)
    expect(form.body).toEqual({ dryRun: false, n: 4 })
  })
})
