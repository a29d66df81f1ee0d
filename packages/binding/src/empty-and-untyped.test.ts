import { Readable } from 'node:stream'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp, type TestHandler } from '../test/helpers.js'
import { bind, bodyBytes, keepsBodyBytes, registerCustomBinder, weftBinding } from './index.js'

const Item = Type.Object({
  id: Type.Optional(Type.String()),
  q: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
})

/** A handler that answers what a BindError carries instead of the error itself. */
function reporting(op: TestHandler): TestHandler {
  return async (request, reply) => {
    try {
      return await op(request, reply)
    } catch (err) {
      const { name, source, message, statusCode } = err as Record<string, unknown>
      return { name, source, message, statusCode }
    }
  }
}

describe('a body without Content-Type', () => {
  const untyped = { method: 'POST' as const, url: '/items/7?q=x', headers: { 'x-token': 't' }, payload: 'some bytes' }

  it('lets all() bind the other sources (the body is not one)', async () => {
    const app = await makeApp((request) => bind(request).all(Item))
    const res = await app.inject(untyped)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ id: '7', q: 'x' })
  })

  it('reaches custom(name) with the bytes', async () => {
    const app = await makeApp(
      (request) => bind(request).custom('text', Item),
      {},
      (a) =>
        registerCustomBinder(a, {
          name: 'text',
          mimeTypes: ['text/x-item'],
          parse: (request) => ({ q: String(request.body) }),
        }),
    )
    const res = await app.inject(untyped)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ q: 'some bytes' })
  })

  it('is a 415 for body(), which needs the type', async () => {
    const app = await makeApp((request) => bind(request).body(Item))
    const res = await app.inject(untyped)
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({
      code: 'WEFT_UNSUPPORTED_MEDIA_TYPE',
      message: 'the request has no Content-Type; expected JSON, a form or XML',
    })
  })

  it('is decoded as JSON by json()', async () => {
    const app = await makeApp((request) => bind(request).json(Item))
    const res = await app.inject({ ...untyped, payload: '{"q":"from body"}' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ q: 'from body' })
  })

  it('keeps its bytes for c.body(), within bodyLimit', async () => {
    const app = await makeApp((request) => ({
      kept: keepsBodyBytes(request),
      bytes: bodyBytes(request)?.toString(),
    }))
    expect((await app.inject(untyped)).json()).toEqual({ kept: true, bytes: 'some bytes' })
    const large = await app.inject({ ...untyped, payload: 'x'.repeat(1024 * 1024 + 1) })
    expect(large.statusCode).toBe(413)
  })

  it('counts a chunked body too', async () => {
    const app = await makeApp((request) => bind(request).all(Item))
    const res = await app.inject({ ...untyped, payload: Readable.from([Buffer.from('some'), Buffer.from(' bytes')]) })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ id: '7', q: 'x' })
  })

  it('leaves a body of an unknown type to Fastify 415', async () => {
    const app = await makeApp((request) => bind(request).all(Item))
    const res = await app.inject({ ...untyped, headers: { 'content-type': 'text/csv' } })
    expect(res.statusCode).toBe(415)
    expect(res.json().code).toBe('FST_ERR_CTP_INVALID_MEDIA_TYPE')
  })

  it("leaves such bodies to the app's own catch-all parser", async () => {
    const app = Fastify()
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, 'the app parsed it'))
    await app.register(weftBinding)
    app.post('/', (request) => ({ body: request.body }))
    const res = await app.inject({ method: 'POST', url: '/', payload: 'x' })
    expect(res.json()).toEqual({ body: 'the app parsed it' })
  })
})

describe('an empty body of a document type', () => {
  it.each([
    ['body', 'application/json', 'JSON'],
    ['body', 'application/problem+json', 'JSON'],
    ['body', 'application/xml', 'XML'],
    ['xml', 'text/xml', 'XML'],
  ] as const)('is a BindError of source body for %s() with %s', async (op, type, format) => {
    const app = await makeApp(reporting((request) => bind(request)[op](Item)))
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload: '' })
    expect(res.json()).toEqual({
      name: 'BindError',
      source: 'body',
      statusCode: 400,
      message: `cannot bind body: the ${format} request body is empty`,
    })
  })

  it('answers 400 WEFT_BIND_ERROR to the client', async () => {
    const app = await makeApp((request) => bind(request).body(Item))
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: 'cannot bind body: the JSON request body is empty',
    })
  })

  it('binds as no fields with json(), so that the validator names the required fields', async () => {
    const Login = Type.Object({ email: Type.String(), password: Type.String() })
    const app = await makeApp((request) => bind(request).json(Login))
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_VALIDATION_FAILED', message: expect.stringContaining('email') })
  })

  it('is not a source of all(), sent with a length or chunked', async () => {
    const app = await makeApp((request) => bind(request).all(Item))
    const headers = { 'content-type': 'application/json' }
    for (const payload of ['', Readable.from([])]) {
      const res = await app.inject({ method: 'POST', url: '/items/7?q=x', headers, payload })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ id: '7', q: 'x' })
    }
  })
})
