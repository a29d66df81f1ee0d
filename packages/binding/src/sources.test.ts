import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'

describe('bind().uri()', () => {
  it('reads path parameters by their uri tag', async () => {
    const schema = Type.Object({ itemId: Type.Integer({ uri: 'id' }) })
    const app = await makeApp((request) => bind(request).uri(schema))
    expect((await app.inject({ url: '/items/7' })).json()).toEqual({ itemId: 7 })
  })

  it('reads another tag when asked (the context parsers use params)', async () => {
    const schema = Type.Object({ itemId: Type.Integer({ params: 'id' }) })
    const app = await makeApp((request) => bind(request).uri(schema, { tag: 'params' }))
    expect((await app.inject({ url: '/items/7' })).json()).toEqual({ itemId: 7 })
  })

  it('never splits commas, even with splitting on', async () => {
    const schema = Type.Object({ id: Type.Array(Type.String()) })
    const app = await makeApp((request) => bind(request).uri(schema), { enableSplittingOnParsers: true })
    expect((await app.inject({ url: '/items/a,b' })).json()).toEqual({ id: ['a,b'] })
  })

  it('reports a conversion failure with source uri', async () => {
    const schema = Type.Object({ id: Type.Integer() })
    const app = await makeApp(async (request, reply) => {
      try {
        return await bind(request).uri(schema)
      } catch (err) {
        const { source, field } = err as { source: string; field: string }
        return reply.code(404).send({ source, field })
      }
    })
    const res = await app.inject({ url: '/items/abc' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ source: 'uri', field: 'id' })
  })
})

describe('bind().header()', () => {
  const schema = Type.Object({
    role: Type.Optional(Type.String({ header: 'X-Role' })),
    tags: Type.Array(Type.String({ header: 'X-Tag' }), { header: 'X-Tag', default: [] }),
  })

  it('matches header names case-insensitively', async () => {
    const app = await makeApp((request) => bind(request).header(schema))
    const res = await app.inject({ url: '/', headers: { 'x-role': 'admin' } })
    expect(res.json()).toEqual({ role: 'admin', tags: [] })
  })

  it('splits comma lists only with splitting on', async () => {
    const plain = await makeApp((request) => bind(request).header(schema))
    const split = await makeApp((request) => bind(request).header(schema), { enableSplittingOnParsers: true })
    const headers = { 'x-tag': 'a,b' }
    expect((await plain.inject({ url: '/', headers })).json().tags).toEqual(['a,b'])
    expect((await split.inject({ url: '/', headers })).json().tags).toEqual(['a', 'b'])
  })

  it('reads each value of a repeated header, trimming split items', async () => {
    const app = await makeApp((request) => bind(request).header(schema), { enableSplittingOnParsers: true })
    const res = await app.inject({ url: '/', headers: { 'x-tag': ['a, b', 'c'] } })
    expect(res.json().tags).toEqual(['a', 'b', 'c'])
  })

  it('keeps the values of a header sent twice over real HTTP apart', async () => {
    const app = await makeApp((request) => bind(request).header(schema))
    await app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = app.server.address() as AddressInfo
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { 'X-Tag': ['a,b', 'c'] } }, (res) => {
        let data = ''
        res.on('data', (chunk) => {
          data += chunk
        })
        res.on('end', () => resolve(data))
      })
      req.on('error', reject)
      req.end()
    })
    await app.close()
    expect(JSON.parse(body).tags).toEqual(['a,b', 'c'])
  })

  it('reads the reqHeader tag when the context asks for it', async () => {
    const tagged = Type.Object({ agent: Type.String({ reqHeader: 'User-Agent' }) })
    const app = await makeApp((request) => bind(request).header(tagged, { tag: 'reqHeader' }))
    expect((await app.inject({ url: '/', headers: { 'user-agent': 'probe' } })).json()).toEqual({ agent: 'probe' })
  })

  it('reports a conversion failure with source header', async () => {
    const counted = Type.Object({ count: Type.Integer({ header: 'X-Count' }) })
    const app = await makeApp((request) => bind(request).header(counted))
    const res = await app.inject({ url: '/', headers: { 'x-count': 'many' } })
    expect(res.json()).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: expect.stringContaining('header field "X-Count"'),
    })
  })
})

describe('bind().cookie()', () => {
  const schema = Type.Object({ session: Type.String({ cookie: 'sid' }), visits: Type.Integer({ default: 0 }) })

  it('reads cookies from the Cookie header', async () => {
    const app = await makeApp((request) => bind(request).cookie(schema))
    const res = await app.inject({ url: '/', headers: { cookie: 'sid=abc%20d; visits=3' } })
    expect(res.json()).toEqual({ session: 'abc d', visits: 3 })
  })

  it('reports a conversion failure with source cookie', async () => {
    const app = await makeApp((request) => bind(request).cookie(schema))
    const res = await app.inject({ url: '/', headers: { cookie: 'sid=a; visits=x' } })
    expect(res.json().message).toContain('cookie field "visits"')
  })
})

describe('bind().respHeader()', () => {
  it('reads headers already set on the reply', async () => {
    const schema = Type.Object({ requestId: Type.Integer({ respHeader: 'X-Request-Id' }) })
    const app = await makeApp((request, reply) => {
      reply.header('X-Request-Id', '99')
      return bind(request, reply).respHeader(schema)
    })
    expect((await app.inject({ url: '/' })).json()).toEqual({ requestId: 99 })
  })

  it('is a setup error without the reply', async () => {
    const app = await makeApp((request) => bind(request).respHeader(Type.Object({})))
    const res = await app.inject({ url: '/' })
    expect(res.statusCode).toBe(500)
    expect(res.json().code).toBe('WEFT_NO_REPLY')
  })
})

describe('bind().query() with a custom querystring parser', () => {
  async function withQs(schema: Parameters<ReturnType<typeof bind>['query']>[0], url: string) {
    const { default: Fastify } = await import('fastify')
    const qs = await import('qs')
    const app = Fastify({ routerOptions: { querystringParser: (text: string) => qs.parse(text) } })
    app.get('/', (request) => bind(request).query(schema))
    return app.inject({ url })
  }

  it('reads nested objects and lists as it reads bracket keys', async () => {
    const schema = Type.Object({
      page: Type.Integer(),
      price: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
      sizes: Type.Array(Type.Integer()),
      posts: Type.Array(Type.Object({ title: Type.String() })),
    })
    const res = await withQs(schema, '/?page=2&price[min]=10&price[max]=99&sizes[]=40&sizes[]=41&posts[0][title]=a')
    expect(res.json()).toEqual({ page: 2, price: { min: 10, max: 99 }, sizes: [40, 41], posts: [{ title: 'a' }] })
  })

  it('fills a map from nested values as from the same bracket keys', async () => {
    const schema = Type.Record(Type.String(), Type.String())
    const res = await withQs(schema, '/?a=1&b[c]=2')
    const plain = await (await makeApp((request) => bind(request).query(schema))).inject({ url: '/?a=1&b[c]=2' })
    expect(res.json()).toEqual({ a: '1', 'b.c': '2' })
    expect(res.json()).toEqual(plain.json())
  })

  it('answers 400 for a nested value that does not convert', async () => {
    const schema = Type.Object({ price: Type.Object({ min: Type.Integer() }) })
    const res = await withQs(schema, '/?price[min]=cheap')
    expect(res.statusCode).toBe(400)
  })
})
