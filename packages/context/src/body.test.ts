import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { fill, growth, HEADER_LIMIT, LINEAR_BOUND } from '../test/work.js'
import { handle, type WeftContextOptions } from './index.js'

async function post(payload: Buffer | string, headers: Record<string, string>, options: WeftContextOptions = {}) {
  const app = await makeApp(options)
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
    ['application/x-www-form-urlencoded', 'a=1&b=%C3%A9'],
    ['application/problem+json', '{"title":"x"}'],
    ['application/xml', '<a>1</a>'],
    ['text/plain', 'hello'],
  ])('returns the bytes of a %s body as sent', async (type, payload) => {
    const res = await post(payload, { 'content-type': type })
    expect(res.json().raw).toBe(Buffer.from(payload).toString('base64'))
    expect(res.json().body).toBe(payload)
  })

  it.each(['text/plain', 'application/octet-stream'])(
    'returns a %s body that is not valid UTF-8 byte for byte',
    async (type) => {
      const payload = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])
      const res = await post(payload, { 'content-type': type })
      expect(res.statusCode).toBe(200)
      expect(res.json().raw).toBe(payload.toString('base64'))
    },
  )

  it('refuses a JSON body that is not valid UTF-8 with a 400 (@weft/binding parses JSON as UTF-8 text)', async () => {
    const payload = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])
    const res = await post(payload, { 'content-type': 'application/json' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_INVALID_UTF8' })
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

  it('decodes the brotli alias of br, as Fiber does', async () => {
    const packed = brotliCompressSync(Buffer.from('hello br'))
    const res = await post(packed, { 'content-type': 'application/octet-stream', 'content-encoding': 'brotli' })
    expect(res.json().body).toBe('hello br')
  })

  it.each(['compress', 'x-compress'])('answers 501 for the %s coding, as Fiber does', async (coding) => {
    const res = await post('x', { 'content-type': 'application/octet-stream', 'content-encoding': coding })
    expect(res.statusCode).toBe(501)
    expect(res.json().code).toBe('WEFT_ENCODING_NOT_IMPLEMENTED')
  })

  it('undoes stacked codings last to first when maxContentCodings allows them', async () => {
    const packed = gzipSync(deflateSync(Buffer.from('twice')))
    const headers = { 'content-type': 'application/octet-stream', 'content-encoding': 'deflate, gzip' }
    const res = await post(packed, headers, { maxContentCodings: 2 })
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

describe('body() decoding limits (decompression bombs)', () => {
  const octets = { 'content-type': 'application/octet-stream' }
  // 980-odd bytes that inflate to 64 MiB through two gzip layers
  const bomb = gzipSync(gzipSync(Buffer.alloc(64 * 1024 * 1024)), { level: 9 })

  it('refuses more than one stacked coding with a 415 unless configured', async () => {
    const res = await post(bomb, { ...octets, 'content-encoding': 'gzip, gzip' })
    expect(res.statusCode).toBe(415)
    expect(res.json().code).toBe('WEFT_STACKED_ENCODING')
  })

  it('answers 413 when the decoded body exceeds the route bodyLimit (the default decode limit)', async () => {
    const res = await post(bomb, { ...octets, 'content-encoding': 'gzip, gzip' }, { maxContentCodings: 2 })
    expect(res.statusCode).toBe(413)
    expect(res.json().code).toBe('WEFT_BODY_TOO_LARGE')
  })

  it('uses the bodyLimit of the route as the decode limit', async () => {
    const app = await makeApp()
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_r, b, done) => done(null, b))
    app.post(
      '/small',
      { bodyLimit: 1000 },
      handle((c) => c.json(c.body().length)),
    )
    app.post(
      '/large',
      { bodyLimit: 5000 },
      handle((c) => c.json(c.body().length)),
    )
    const payload = gzipSync(Buffer.alloc(4000, 'a'))
    const headers = { ...octets, 'content-encoding': 'gzip' }
    const small = await app.inject({ method: 'POST', url: '/small', payload, headers })
    expect(small.statusCode).toBe(413)
    const large = await app.inject({ method: 'POST', url: '/large', payload, headers })
    expect(large.json()).toBe(4000)
  })

  it('honours the bodyDecodeLimit option', async () => {
    const payload = gzipSync(Buffer.alloc(4000, 'a'))
    const headers = { ...octets, 'content-encoding': 'gzip' }
    expect((await post(payload, headers, { bodyDecodeLimit: 3999 })).statusCode).toBe(413)
    expect((await post(payload, headers, { bodyDecodeLimit: 4000 })).statusCode).toBe(200)
  })

  it('applies the same limits when it decodes synchronously (no plugin: body from request.body)', async () => {
    const app = Fastify()
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_r, b, done) => done(null, b))
    app.post(
      '/',
      { bodyLimit: 1000 },
      handle((c) => c.json(c.body().length)),
    )
    const headers = { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' }
    const big = await app.inject({ method: 'POST', url: '/', payload: gzipSync(Buffer.alloc(4000)), headers })
    expect([big.statusCode, big.json().code]).toEqual([413, 'WEFT_BODY_TOO_LARGE'])
    const small = await app.inject({ method: 'POST', url: '/', payload: gzipSync(Buffer.alloc(900)), headers })
    expect(small.json()).toBe(900)
    const stacked = { ...headers, 'content-encoding': 'gzip, gzip' }
    const twice = await app.inject({
      method: 'POST',
      url: '/',
      payload: gzipSync(gzipSync(Buffer.alloc(9))),
      headers: stacked,
    })
    expect(twice.statusCode).toBe(415)
  })

  it('decodes a coded body read through request.ctx in a plain handler', async () => {
    const app = await makeApp()
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_r, b, done) => done(null, b))
    app.post('/', async (request) => request.ctx.body().toString())
    const res = await app.inject({
      method: 'POST',
      url: '/',
      payload: gzipSync('plain handler'),
      headers: { ...octets, 'content-encoding': 'gzip' },
    })
    expect(res.body).toBe('plain handler')
  })

  it('keeps a body no binding parser reads for request.ctx in a hook and in the handler alike', async () => {
    const app = await makeApp()
    app.addContentTypeParser('application/octet-stream', (_request, payload, done) => {
      payload.resume()
      payload.on('end', () => done(null, 'parsed by the app'))
    })
    app.addHook('preHandler', async (request) => {
      request.ctx.locals('seen', request.ctx.bodyRaw().toString())
    })
    app.post('/', async (request) => ({
      hook: request.ctx.locals('seen'),
      handler: request.ctx.bodyRaw().toString(),
      body: request.body,
    }))
    const res = await app.inject({ method: 'POST', url: '/', payload: Buffer.from('raw bytes'), headers: octets })
    expect(res.json()).toEqual({ hook: 'raw bytes', handler: 'raw bytes', body: 'parsed by the app' })
  })

  it('decodes a large body before the handler, so body() does not block the event loop', async () => {
    const app = await makeApp({ bodyDecodeLimit: 64 * 1024 * 1024 })
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_r, b, done) => done(null, b))
    app.post(
      '/',
      handle((c) => {
        const started = performance.now()
        const length = c.body().length
        c.json({ length, ms: performance.now() - started })
      }),
    )
    const payload = gzipSync(Buffer.alloc(64 * 1024 * 1024, 'a'))
    const res = await app.inject({
      method: 'POST',
      url: '/',
      payload,
      headers: { ...octets, 'content-encoding': 'gzip' },
    })
    expect(res.json().length).toBe(64 * 1024 * 1024)
    expect(res.json().ms).toBeLessThan(5)
  })
})

/** POSTs `parts` over a real socket, one write each with a pause between, as a chunked body. */
function postInParts(port: number, parts: Buffer[], contentType: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': contentType } },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      },
    )
    req.on('error', reject)
    const writeNext = (index: number) => {
      if (index === parts.length) return void req.end()
      req.write(parts[index])
      setTimeout(() => writeNext(index + 1), 5)
    }
    writeNext(0)
  })
}

describe('body() over a real socket', () => {
  const json = JSON.stringify({ text: 'é'.repeat(40_000), list: Array.from({ length: 2_000 }, (_, i) => i) })
  const bytes = Buffer.from(json)
  // split inside a two-byte character too, so chunk boundaries cannot be hidden by decoding
  const parts = [bytes.subarray(0, 1001), bytes.subarray(1001, 50_000), bytes.subarray(50_000)]

  async function serve(setup: (app: Awaited<ReturnType<typeof makeApp>>) => void) {
    const app = await makeApp()
    setup(app)
    app.post(
      '/',
      handle((c) =>
        c.json({
          same: c.body().equals(bytes),
          length: c.body().length,
          parsedList: (c.request().body as { list: number[] }).list.length,
        }),
      ),
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    return { app, port: (app.server.address() as AddressInfo).port }
  }

  it('keeps every byte of a body sent in parts, and Fastify still parses all of it', async () => {
    const { app, port } = await serve(() => {})
    try {
      const res = await postInParts(port, parts, 'application/json')
      expect(res.status).toBe(200)
      expect(JSON.parse(res.text)).toEqual({ same: true, length: bytes.length, parsedList: 2_000 })
    } finally {
      await app.close()
    }
  })

  it('loses nothing when a later preParsing hook waits before Fastify reads the body', async () => {
    const { app, port } = await serve((app) => {
      app.addHook('preParsing', async () => {
        await new Promise((resolve) => setTimeout(resolve, 30))
      })
    })
    try {
      const res = await postInParts(port, [bytes], 'application/json')
      expect(JSON.parse(res.text)).toEqual({ same: true, length: bytes.length, parsedList: 2_000 })
    } finally {
      await app.close()
    }
  })

  it('answers 413 for a body over the route limit and keeps serving', async () => {
    const app = await makeApp({}, { bodyLimit: 10_000 })
    app.post(
      '/',
      handle((c) => c.sendString(String(c.body().length))),
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const { port } = app.server.address() as AddressInfo
      expect((await postInParts(port, parts, 'application/json')).status).toBe(413)
      const small = await postInParts(port, [Buffer.from('{"a":1}')], 'application/json')
      expect([small.status, small.text]).toEqual([200, '7'])
    } finally {
      await app.close()
    }
  })
})

describe('body(): bounded work on Content-Encoding', () => {
  it('reads a long list of codings in time linear in the header, then refuses it (415)', async () => {
    const app = await makeApp()
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_r, body, done) => done(null, body))
    app.post(
      '/',
      handle((c) => c.send(c.body())),
    )
    const send = (coding: string) =>
      app.inject({
        method: 'POST',
        url: '/',
        payload: 'x',
        headers: { 'content-type': 'application/octet-stream', 'content-encoding': coding },
      })
    const res = await send(fill('gzip, ', 1000))
    expect(res.statusCode).toBe(415)
    expect(res.json().code).toBe('WEFT_STACKED_ENCODING')
    // 64 KB against 512 KB: below that the fixed cost of a request hides a quadratic list
    expect(await growth((n) => fill('gzip,', n), send, 4 * HEADER_LIMIT)).toBeLessThanOrEqual(LINEAR_BOUND)
  })
})
