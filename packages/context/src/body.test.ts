import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle } from './index.js'

async function post(payload: Buffer | string, headers: Record<string, string>, immutable = false) {
  const app = await makeApp({ immutable })
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_r, body, done) => done(null, body))
  app.post(
    '/',
    handle((c) =>
      c.json({
        body: c.body().toString(),
        raw: c.bodyRaw().toString('base64'),
        parsed: c.request().body,
      }),
    ),
  )
  return app.inject({ method: 'POST', url: '/', payload, headers })
}

describe('body and bodyRaw', () => {
  it('returns the raw JSON bytes and leaves request.body parsed as Fastify does', async () => {
    const res = await post('{"a": 1}', { 'content-type': 'application/json' })
    expect(res.json()).toEqual({ body: '{"a": 1}', raw: Buffer.from('{"a": 1}').toString('base64'), parsed: { a: 1 } })
  })

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('decodes Content-Encoding %s in body() but not in bodyRaw()', async (coding, compress) => {
    const packed = compress(Buffer.from('hello world'))
    const res = await post(packed, { 'content-type': 'application/octet-stream', 'content-encoding': coding })
    expect(res.json().body).toBe('hello world')
    expect(res.json().raw).toBe(packed.toString('base64'))
  })

  it('undoes stacked codings last to first', async () => {
    const packed = gzipSync(deflateSync(Buffer.from('twice')))
    const res = await post(packed, { 'content-type': 'application/octet-stream', 'content-encoding': 'deflate, gzip' })
    expect(res.json().body).toBe('twice')
  })

  it('answers 415 for an unknown coding and 400 for corrupt data', async () => {
    const unknown = await post('x', { 'content-type': 'application/octet-stream', 'content-encoding': 'zz' })
    expect(unknown.statusCode).toBe(415)
    expect(unknown.json().code).toBe('WEFT_UNSUPPORTED_ENCODING')
    const corrupt = await post('not gzip', { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' })
    expect(corrupt.statusCode).toBe(400)
    expect(corrupt.json().code).toBe('WEFT_BAD_ENCODING')
  })

  it('is empty for a request without a body', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => c.json([c.body().length, c.bodyRaw().length])),
    )
    expect((await app.inject('/')).json()).toEqual([0, 0])
  })

  it('returns a copy with the immutable option', async () => {
    const app = await makeApp({ immutable: true })
    app.post(
      '/',
      handle((c) => {
        const first = c.bodyRaw()
        first.fill(0)
        c.sendString(c.bodyRaw().toString())
      }),
    )
    const res = await app.inject({
      method: 'POST',
      url: '/',
      payload: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.body).toBe('{"a":1}')
  })
})
