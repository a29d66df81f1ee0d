import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'

const Product = Type.Object({ title: Type.String(), price: Type.Optional(Type.Number()) })

async function send(
  op: (request: Parameters<typeof bind>[0]) => Promise<unknown>,
  contentType: string | undefined,
  payload: string,
) {
  const app = await makeApp(op, {}, (a) => {
    a.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_r, body, done) => done(null, body))
  })
  const headers = contentType === undefined ? {} : { 'content-type': contentType }
  const res = await app.inject({ method: 'POST', url: '/', headers, payload })
  return { status: res.statusCode, body: res.json() }
}

const json = (request: Parameters<typeof bind>[0]) => bind(request).json(Product)

describe('bind().json() decodes the body once', () => {
  it('does not decode a JSON string that contains JSON a second time', async () => {
    const res = await send(json, 'application/json', JSON.stringify('{"title":"x"}'))
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining('is not an object') })
  })

  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['a boolean', 'true'],
    ['a string', '"x"'],
    ['an array', '[{"title":"x"}]'],
  ])('rejects %s where an object is expected with a BindError', async (_name, payload) => {
    const res = await send(json, 'application/json', payload)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: expect.stringMatching(/^cannot bind body: .+ is not an object$/),
    })
  })

  it.each(['application/json', 'application/problem+json', 'application/octet-stream'])(
    'binds an object sent as %s',
    async (contentType) => {
      expect(await send(json, contentType, '{"title":"x","price":2}')).toEqual({
        status: 200,
        body: { title: 'x', price: 2 },
      })
    },
  )

  it('decodes the bytes of a type with no format of its own as JSON, as Fiber does (text/plain)', async () => {
    expect(await send(json, 'text/plain', '{"title":"x"}')).toEqual({ status: 200, body: { title: 'x' } })
  })

  it.each([
    ['application/x-www-form-urlencoded', 'title=x'],
    ['application/xml', '<p><title>x</title></p>'],
  ])('answers 415 for a body of another format (%s), naming application/json', async (contentType, payload) => {
    const res = await send(json, contentType, payload)
    expect(res.status).toBe(415)
    expect(res.body).toMatchObject({
      code: 'WEFT_UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringContaining('application/json'),
    })
  })

  it.each([
    ['text/plain', '{"title":"x"}'],
    ['application/octet-stream', '{"title":"x"}'],
    [undefined, ''],
  ])('answers 415 for %s with requireContentType: true', async (contentType, payload) => {
    const strict = (request: Parameters<typeof bind>[0]) => bind(request).json(Product, { requireContentType: true })
    const res = await send(strict, contentType, payload)
    expect(res.status).toBe(415)
    expect(res.body.code).toBe('WEFT_UNSUPPORTED_MEDIA_TYPE')
  })

  it('accepts application/json and +json with requireContentType: true', async () => {
    const strict = (request: Parameters<typeof bind>[0]) => bind(request).json(Product, { requireContentType: true })
    expect((await send(strict, 'application/json; charset=utf-8', '{"title":"x"}')).status).toBe(200)
    expect((await send(strict, 'application/merge-patch+json', '{"title":"x"}')).status).toBe(200)
  })

  it('reads a malformed JSON body as a 400, never a 500', async () => {
    const res = await send(json, 'text/plain', '{"title":')
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('WEFT_BIND_ERROR')
  })
})

describe('bind().json() hands back the parsed body when it fits exactly', () => {
  const Item = Type.Object({
    title: Type.String(),
    price: Type.Number({ default: 0 }),
    tags: Type.Array(Type.String()),
    size: Type.Object({ width: Type.Number() }),
  })
  // what the handler sees: whether the bound value is Fastify's request.body, and what it answers
  const seen = async (payload: string) => {
    const app = await makeApp(async (request) => {
      const item = await bind(request).json(Item)
      return { same: item === request.body, sameSize: item.size === (request.body as typeof item).size, item }
    })
    return (
      await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })
    ).json()
  }

  it('is request.body itself, answered in the client’s key order', async () => {
    const payload = '{"tags":["a"],"size":{"width":2},"title":"desk","price":5}'
    const res = await seen(payload)
    expect(res).toEqual({ same: true, sameSize: true, item: JSON.parse(payload) })
    expect(Object.keys(res.item)).toEqual(['tags', 'size', 'title', 'price'])
  })

  it('is a new object when a default fills a property (the fitting parts stay the body’s)', async () => {
    const res = await seen('{"title":"desk","tags":[],"size":{"width":2}}')
    expect(res).toEqual({
      same: false,
      sameSize: true,
      item: { title: 'desk', price: 0, tags: [], size: { width: 2 } },
    })
  })
})

describe('empty JSON bodies', () => {
  const Search = Type.Object({ q: Type.Optional(Type.String()) })

  it('all(): an empty application/json body is not a source (no error)', async () => {
    const res = await send((request) => bind(request).all(Search), 'application/json', '')
    expect(res).toEqual({ status: 200, body: {} })
  })
})
