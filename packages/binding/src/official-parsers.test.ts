import fastifyFormbody from '@fastify/formbody'
import fastifyMultipart from '@fastify/multipart'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { multipart } from '../test/helpers.js'
import { bind, FileField, weftBinding } from './index.js'
import { xmlBodies } from './xml.js'

const Upload = Type.Object({
  title: Type.String(),
  tags: Type.Array(Type.String()),
  doc: FileField(),
})
const Named = Type.Object({ name: Type.String() })

type Order = 'binding first' | 'plugin first'
const orders: Order[] = ['binding first', 'plugin first']

/** weftBinding and `register` (an official plugin, or the app's own parser) in `order`, then a route. */
async function appWith(order: Order, register: (app: FastifyInstance) => unknown): Promise<FastifyInstance> {
  const app = Fastify()
  if (order === 'plugin first') await register(app)
  await app.register(weftBinding)
  if (order === 'binding first') await register(app)
  app.post('/form', async (request) => bind(request).form(Named))
  app.post('/upload', async (request) => {
    const out = await bind(request).form(Upload)
    return { title: out.title, tags: out.tags, doc: [out.doc.filename, out.doc.buffer.toString()] }
  })
  app.post('/body', async (request) => bind(request).body(Named))
  return app
}

const uploadBody = multipart([
  { name: 'title', value: 'Report' },
  { name: 'tags', value: 'a' },
  { name: 'tags', value: 'b' },
  { name: 'doc', filename: 'r.txt', type: 'text/plain', content: 'hello' },
])

describe.each(orders)('@fastify/formbody (%s)', (order) => {
  it('boots, and its parsed form binds', async () => {
    const app = await appWith(order, (app) => app.register(fastifyFormbody))
    const res = await app.inject({
      method: 'POST',
      url: '/form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Ada',
    })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'Ada' }])
  })
})

describe.each(orders)('@fastify/multipart (%s)', (order) => {
  it.each([
    ['no options', {}],
    ['attachFieldsToBody: true', { attachFieldsToBody: true }],
  ])('with %s boots, and bind().form() binds fields and files', async (_name, options) => {
    const app = await appWith(order, (app) => app.register(fastifyMultipart, options))
    const res = await app.inject({ method: 'POST', url: '/upload', ...uploadBody })
    expect([res.statusCode, res.json()]).toEqual([200, { title: 'Report', tags: ['a', 'b'], doc: ['r.txt', 'hello'] }])
  })

  it("with attachFieldsToBody: 'keyValues' binds fields, and files by their bytes", async () => {
    const app = await appWith(order, (app) => app.register(fastifyMultipart, { attachFieldsToBody: 'keyValues' }))
    const res = await app.inject({ method: 'POST', url: '/upload', ...uploadBody })
    expect([res.statusCode, res.json()]).toEqual([200, { title: 'Report', tags: ['a', 'b'], doc: ['', 'hello'] }])
  })

  it('with attachFieldsToBody: true, body() binds the fields too', async () => {
    const app = await appWith(order, (app) => app.register(fastifyMultipart, { attachFieldsToBody: true }))
    const res = await app.inject({ method: 'POST', url: '/body', ...multipart([{ name: 'name', value: 'Ada' }]) })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'Ada' }])
  })

  it('with attachFieldsToBody: true, a missing field is the usual 400', async () => {
    const app = await appWith(order, (app) => app.register(fastifyMultipart, { attachFieldsToBody: true }))
    const res = await app.inject({ method: 'POST', url: '/body', ...multipart([{ name: 'other', value: 'x' }]) })
    expect(res.statusCode).toBe(400)
  })
})

describe.each(orders)('an application/json parser of the app’s own (%s)', (order) => {
  const ownJson = (app: FastifyInstance) =>
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) =>
      done(null, { name: `own:${String(text)}` }),
    )

  it('is kept: it parses the body that binds', async () => {
    const app = await appWith(order, ownJson)
    const res = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'own:{}' }])
  })
})

describe('parsers of a child context', () => {
  it('may take the types of the parent’s defaults, even after the parent has routes', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    app.post('/root', async (request) => bind(request).form(Named))
    await app.register(async (child) => {
      await child.register(fastifyFormbody)
      await child.register(fastifyMultipart, { attachFieldsToBody: true })
      child.post('/child', async (request) => bind(request).form(Named))
    })
    const form = { 'content-type': 'application/x-www-form-urlencoded' }
    for (const url of ['/root', '/child']) {
      const res = await app.inject({ method: 'POST', url, headers: form, payload: 'name=Ada' })
      expect([url, res.statusCode, res.json()]).toEqual([url, 200, { name: 'Ada' }])
      const parts = await app.inject({ method: 'POST', url, ...multipart([{ name: 'name', value: 'Bo' }]) })
      expect([url, parts.statusCode, parts.json()]).toEqual([url, 200, { name: 'Bo' }])
    }
  })

  it('keep the defaults when they add none of their own', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    await app.register(xmlBodies)
    app.post('/root', async () => 'root')
    await app.register(async (child) => {
      child.post('/child', async (request) => ({ name: (await bind(request).body(Named)).name, raw: request.body }))
    })
    const res = await app.inject({
      method: 'POST',
      url: '/child',
      headers: { 'content-type': 'application/json' },
      payload: '',
    })
    // the plugin's JSON parser: an empty body is no body, then a BindError
    expect(res.statusCode).toBe(400)
    const xml = await app.inject({
      method: 'POST',
      url: '/child',
      headers: { 'content-type': 'application/xml' },
      payload: '<p><name>Ada</name></p>',
    })
    expect(xml.json()).toEqual({
      name: 'Ada',
      raw: { type: 'Buffer', data: [...Buffer.from('<p><name>Ada</name></p>')] },
    })
  })
})

describe('registrations not awaited', () => {
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' }

  it('give routes declared before weftBinding loads its parsers', async () => {
    const app = Fastify()
    app.register(weftBinding)
    app.post('/', async (request) => bind(request).form(Named))
    const res = await app.inject({ method: 'POST', url: '/', headers: formHeaders, payload: 'name=Ada' })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'Ada' }])
  })

  it('keep the parser of a plugin registered after weftBinding and before the routes', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    app.register(fastifyMultipart, { attachFieldsToBody: true })
    app.post('/', async (request) => bind(request).form(Named))
    const res = await app.inject({ method: 'POST', url: '/', ...multipart([{ name: 'name', value: 'Ada' }]) })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'Ada' }])
  })
})

describe('a child registering weftBinding with emptyJsonBody: error', () => {
  it('gets Fastify’s JSON parser and its 400 for an empty body; the parent keeps Weft’s', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    app.post('/', async (request) => ({ body: request.body ?? 'none' }))
    await app.register(async (child) => {
      await child.register(weftBinding, { emptyJsonBody: 'error' })
      child.post('/child', async (request) => bind(request).json(Named))
    })
    const json = { 'content-type': 'application/json' }
    const root = await app.inject({ method: 'POST', url: '/', headers: json, payload: '' })
    expect([root.statusCode, root.json()]).toEqual([200, { body: 'none' }])
    const ok = await app.inject({ method: 'POST', url: '/child', headers: json, payload: '{"name":"Ada"}' })
    expect([ok.statusCode, ok.json()]).toEqual([200, { name: 'Ada' }])
    const empty = await app.inject({ method: 'POST', url: '/child', headers: json, payload: '' })
    expect([empty.statusCode, empty.json().code]).toEqual([400, 'FST_ERR_CTP_EMPTY_JSON_BODY'])
  })
})
