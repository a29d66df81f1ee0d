import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { weftBinding } from '@weft/binding'
import { xmlBodies } from '@weft/binding/xml'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle, type WeftContextOptions } from './index.js'

const Person = Type.Object({ name: Type.String(), tags: Type.Optional(Type.Array(Type.String())) })

/** A route that binds the body (XML enabled too) and shows what body() and bodyRaw() return. */
async function bindRoute(options: WeftContextOptions = {}) {
  const app = await makeApp(options)
  await app.register(xmlBodies)
  app.post(
    '/',
    handle(async (c) =>
      c.json({
        bound: await c.bind().body(Person),
        body: c.body().toString(),
        raw: c.bodyRaw().toString('base64'),
      }),
    ),
  )
  return app
}

const post = (app: Awaited<ReturnType<typeof bindRoute>>, type: string, coding: string, payload: Buffer) =>
  app.inject({ method: 'POST', url: '/', headers: { 'content-type': type, 'content-encoding': coding }, payload })

describe('coded bodies that @weft/binding parses (JSON, forms, XML)', () => {
  it.each([
    ['application/json', '{"name":"Ada","tags":["x"]}'],
    ['application/x-www-form-urlencoded', 'name=Ada&tags=x'],
    ['application/xml', '<p><name>Ada</name><tags>x</tags></p>'],
  ])('are decoded before %s is parsed: bind(), body() and bodyRaw() agree', async (type, text) => {
    for (const [coding, compress] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const packed = compress(Buffer.from(text))
      const res = await post(await bindRoute(), type, coding, packed)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        bound: { name: 'Ada', tags: ['x'] },
        body: text,
        raw: packed.toString('base64'),
      })
    }
  })

  it('answer an unknown coding with 415, corrupt data with 400, and a bomb with 413', async () => {
    const app = await bindRoute({ bodyDecodeLimit: 1000 })
    const unknown = await post(app, 'application/json', 'zstd', Buffer.from('{"name":"Ada"}'))
    expect([unknown.statusCode, unknown.json().code]).toEqual([415, 'WEFT_UNSUPPORTED_ENCODING'])
    const corrupt = await post(app, 'application/json', 'gzip', Buffer.from('not gzip at all'))
    expect([corrupt.statusCode, corrupt.json().code]).toEqual([400, 'WEFT_BAD_ENCODING'])
    const bomb = await post(app, 'application/json', 'gzip', gzipSync(Buffer.from(`{"name":"${'a'.repeat(5000)}"}`)))
    expect([bomb.statusCode, bomb.json().code]).toEqual([413, 'WEFT_BODY_TOO_LARGE'])
  })

  it('keep the identity coding a no-op', async () => {
    const res = await post(await bindRoute(), 'application/json', 'identity', Buffer.from('{"name":"Ada"}'))
    expect(res.json().bound).toEqual({ name: 'Ada' })
  })

  it('without @weft/context (no decoder), are a 415 that says to send them uncompressed', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    app.post('/', async () => 'parsed')
    const res = await app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      payload: gzipSync(Buffer.from('name=Ada')),
    })
    expect(res.statusCode).toBe(415)
    expect(res.headers['accept-encoding']).toBe('identity')
    expect(res.json()).toMatchObject({
      code: 'WEFT_UNSUPPORTED_ENCODING',
      message: "request bodies with Content-Encoding 'gzip' are not accepted; send the body uncompressed",
    })
  })
})
