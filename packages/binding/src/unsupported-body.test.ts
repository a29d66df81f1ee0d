import { encode } from 'cbor-x'
import Fastify from 'fastify'
import { pack } from 'msgpackr'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp, multipart } from '../test/helpers.js'
import { cborBodies } from './cbor.js'
import { bind, weftBinding } from './index.js'

const Point = Type.Object({ x: Type.Integer(), label: Type.Optional(Type.String()) })

// The client chooses the Content-Type: a format the app does not decode is the client's mistake
// (415), never a 500 logged as the server's error.
describe('a body format the app has not enabled', () => {
  const bodies = [
    ['application/vnd.msgpack', pack({ x: 1 })],
    ['application/msgpack', pack({ x: 1 })],
    ['application/x-msgpack', pack({ x: 1 })],
    ['application/cbor', encode({ x: 1 })],
    ['application/example+cbor', encode({ x: 1 })],
  ] as const

  it.each(bodies)('answers %s to body() with a 415 that says what is accepted', async (type, payload) => {
    const app = await makeApp((request) => bind(request).body(Point))
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({
      code: 'WEFT_UNSUPPORTED_MEDIA_TYPE',
      message: `unsupported Content-Type "${type}"; expected JSON, a form or XML`,
    })
  })

  it.each(bodies)('answers %s to all() with a 415', async (type, payload) => {
    const app = await makeApp((request) => bind(request).all(Point))
    const res = await app.inject({ method: 'POST', url: '/?x=2', headers: { 'content-type': type }, payload })
    expect(res.statusCode).toBe(415)
    expect(res.json().code).toBe('WEFT_UNSUPPORTED_MEDIA_TYPE')
  })

  it('names the formats that are enabled', async () => {
    const app = await makeApp(
      (request) => bind(request).body(Point),
      {},
      (a) => a.register(cborBodies),
    )
    const headers = { 'content-type': 'application/vnd.msgpack' }
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: pack({ x: 1 }) })
    expect(res.statusCode).toBe(415)
    expect(res.json().message).toBe(
      'unsupported Content-Type "application/vnd.msgpack"; expected JSON, a form, XML or CBOR',
    )
  })

  it('keeps the 500 with the import to add for an explicit msgPack() call', async () => {
    const app = await makeApp((request) => bind(request).msgPack(Point))
    const headers = { 'content-type': 'application/vnd.msgpack' }
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: pack({ x: 1 }) })
    expect(res.statusCode).toBe(500)
    expect(res.json().code).toBe('WEFT_MSGPACK_DISABLED')
  })

  it('answers an XML body to body() and all() with a 415 until xmlBodies is registered', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    app.post('/body', (request) => bind(request).body(Point))
    app.post('/all', (request) => bind(request).all(Point))
    for (const type of ['application/xml', 'text/xml', 'application/atom+xml']) {
      for (const url of ['/body', '/all?x=2']) {
        const res = await app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': type },
          payload: '<p><x>1</x></p>',
        })
        expect(res.statusCode).toBe(415)
        expect(res.json()).toMatchObject({
          code: 'WEFT_UNSUPPORTED_MEDIA_TYPE',
          message: `unsupported Content-Type "${type}"; expected JSON or a form`,
        })
      }
    }
  })

  it('keeps the 500 with the import to add for an explicit xml() call without xmlBodies', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    app.post('/', (request) => bind(request).xml(Point))
    const headers = { 'content-type': 'application/xml' }
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: '<p><x>1</x></p>' })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toMatchObject({
      code: 'WEFT_XML_DISABLED',
      message:
        "XML bodies are not enabled: register xmlBodies (import { xmlBodies } from '@weft/binding/xml') on the app",
    })
  })

  it('answers a multipart body with a 415 when multipart forms are off and a catch-all parser let it through', async () => {
    const app = Fastify()
    await app.register(weftBinding, { multipart: false })
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined))
    app.post('/', (request) => bind(request).body(Point))
    const form = multipart([{ name: 'x', value: '1' }])
    const res = await app.inject({ method: 'POST', url: '/', headers: form.headers, payload: form.payload })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({
      code: 'WEFT_UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringContaining('multipart forms are not enabled'),
    })
  })

  it('answers XML, MessagePack and CBOR with Fastify 415 when weftBinding is not registered', async () => {
    const app = Fastify()
    app.post('/', (request) => bind(request).body(Point))
    for (const type of ['application/xml', 'application/vnd.msgpack', 'application/cbor']) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload: 'x' })
      expect(res.statusCode).toBe(415)
    }
  })
})
