import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { bodyBytes, keepsBodyBytes, registerCustomBinder, type WeftBindingOptions, weftBinding } from './index.js'

/** An app whose route answers what binding kept of the body, and whether it said it would. */
async function echoApp(options: WeftBindingOptions = {}, setup?: (app: FastifyInstance) => void) {
  const app = Fastify()
  await app.register(weftBinding, options)
  setup?.(app)
  app.post('/', async (request) => ({
    promised: keepsBodyBytes(request),
    kept: bodyBytes(request)?.toString('base64') ?? null,
  }))
  return app
}

const post = (app: FastifyInstance, type: string, payload: Buffer | string) =>
  app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload })

describe('the bytes of a body, kept by binding parsers', () => {
  it.each([
    ['application/json', '{"name":"é"}'],
    ['application/json; charset=utf-8', '{"name":"x"}'],
    ['Application/JSON', '{"name":"x"}'],
    ['application/problem+json', '{"title":"x"}'],
    ['application/x-www-form-urlencoded', 'name=a&tag=b'],
    ['application/xml', '<item><name>x</name></item>'],
    ['application/msgpack', Buffer.from([0x81, 0xa1, 0x61, 0x01])],
    ['application/cbor', Buffer.from([0xa1, 0x61, 0x61, 0x01])],
  ])('keeps a %s body byte for byte, as promised before it was read', async (type, payload) => {
    const res = await post(await echoApp(), type, payload)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ promised: true, kept: Buffer.from(payload).toString('base64') })
  })

  it('keeps bytes that are not valid UTF-8 as they came (a binary body of a custom binder)', async () => {
    const app = await echoApp({}, (app) =>
      registerCustomBinder(app, { name: 'raw', mimeTypes: ['application/x-raw'], parse: () => ({}) }),
    )
    const payload = Buffer.from([0x61, 0xff, 0xfe, 0x00])
    expect((await post(app, 'application/x-raw', payload)).json().kept).toBe(payload.toString('base64'))
  })

  it('refuses a JSON body that is not UTF-8 before any handler sees it', async () => {
    const payload = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])
    const res = await post(await echoApp(), 'application/json', payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_INVALID_UTF8')
  })

  it('keeps the bytes of a custom binder body', async () => {
    const app = await echoApp({}, (app) =>
      registerCustomBinder(app, { name: 'yaml', mimeTypes: ['application/yaml'], parse: () => ({}) }),
    )
    expect((await post(app, 'application/yaml', 'a: 1')).json()).toEqual({
      promised: true,
      kept: Buffer.from('a: 1').toString('base64'),
    })
  })

  it('promises nothing for types it has no parser of its own for', async () => {
    const res = await post(await echoApp(), 'text/plain', 'hello')
    expect(res.json()).toEqual({ promised: false, kept: null })
  })

  it("promises nothing for JSON when the app's JSON parser stays (emptyJsonBody: 'error')", async () => {
    const res = await post(await echoApp({ emptyJsonBody: 'error' }), 'application/json', '{"a":1}')
    expect(res.json()).toEqual({ promised: false, kept: null })
  })

  it('promises nothing for a form type whose parser the app had before', async () => {
    const own = Fastify()
    own.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
      done(null, { body }),
    )
    await own.register(weftBinding)
    own.post('/', async (request) => ({ promised: keepsBodyBytes(request), kept: bodyBytes(request) ?? null }))
    const res = await post(own, 'application/x-www-form-urlencoded', 'a=1')
    expect(res.json()).toEqual({ promised: false, kept: null })
  })

  it('still answers an empty JSON body as no body, and keeps the empty bytes', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    app.post('/', async (request) => ({ body: request.body ?? 'none', kept: bodyBytes(request)?.length }))
    const res = await post(app, 'application/json', '')
    expect(res.json()).toEqual({ body: 'none', kept: 0 })
  })
})
