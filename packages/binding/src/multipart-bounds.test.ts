import { once } from 'node:events'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import Fastify, { type FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { afterEach, describe, expect, it } from 'vitest'
import { makeApp, multipart } from '../test/helpers.js'
import { bind, FileField, multipartForm, weftBinding } from './index.js'

const boundary = '----weft-bounds'
const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` }
const MiB = 1024 * 1024

/** `count` text fields named `name0`, `name1`... of `size` bytes each, as one multipart body. */
function manyFields(count: number, size: number, name = 'f'): Buffer {
  const value = 'x'.repeat(size)
  const parts: string[] = []
  for (let i = 0; i < count; i++) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}${i}"\r\n\r\n${value}\r\n`)
  }
  parts.push(`--${boundary}--\r\n`)
  return Buffer.from(parts.join(''))
}

/** A multipart body of `total` bytes streamed lazily, counting the bytes the server pulled. */
function endlessFields(total: number): { stream: Readable; read: () => number } {
  const chunk = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="junk"\r\n\r\n${'y'.repeat(64 * 1024)}\r\n`,
  )
  let sent = 0
  const stream = new Readable({
    read() {
      if (sent >= total) {
        this.push(`--${boundary}--\r\n`)
        this.push(null)
        return
      }
      sent += chunk.length
      this.push(chunk)
    },
  })
  return { stream, read: () => sent }
}

const Title = Type.Object({ title: Type.String() })

describe('multipart bodies are bounded by the route bodyLimit', () => {
  it.each([
    ['form()', 'form'],
    ['body() (a route expecting JSON)', 'body'],
    ['all()', 'all'],
  ] as const)('answers 413 when the whole stream passes bodyLimit, through %s', async (_name, op) => {
    const app = Fastify({ bodyLimit: MiB })
    await app.register(weftBinding)
    app.post('/', (request) => bind(request)[op](Title))
    // 40 fields of 100 KiB: each under fieldSize, 4 MiB in all
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: manyFields(40, 100 * 1024) })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' })
  })

  it('follows the route bodyLimit, not only the app one', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    app.post('/', { bodyLimit: 1000 }, (request) => bind(request).form(Title))
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: manyFields(4, 400) })
    expect(res.statusCode).toBe(413)
  })

  it('accepts a body just under bodyLimit', async () => {
    const app = Fastify({ bodyLimit: MiB })
    await app.register(weftBinding)
    app.post('/', (request) => bind(request).form(Type.Object({ f0: Type.String() })))
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: manyFields(9, 100 * 1024) })
    expect(res.statusCode).toBe(200)
  })

  it('stops reading a stream without Content-Length soon after bodyLimit (413, bytes bounded)', async () => {
    const app = Fastify({ bodyLimit: MiB })
    await app.register(weftBinding)
    app.post('/', (request) => bind(request).form(Title))
    const { stream, read } = endlessFields(300 * MiB)
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: stream })
    expect(res.statusCode).toBe(413)
    expect(read()).toBeLessThan(8 * MiB)
  })

  it('answers 413 at once when Content-Length already says the body is too large', async () => {
    const app = Fastify({ bodyLimit: MiB })
    await app.register(weftBinding)
    app.post('/', (request) => bind(request).form(Title))
    const payload = manyFields(30, 100 * 1024)
    const res = await app.inject({
      method: 'POST',
      url: '/',
      headers: { ...headers, 'content-length': String(payload.length) },
      payload,
    })
    expect(res.statusCode).toBe(413)
  })

  it('keeps the per-part limits under bodyLimit', async () => {
    const app = await makeApp((request) => bind(request).form(Title), { multipartLimits: { fieldSize: 10 } })
    const res = await app.inject({ method: 'POST', url: '/', ...multipart([{ name: 'title', value: 'x'.repeat(11) }]) })
    expect(res.statusCode).toBe(413)
    expect(res.json().code).toBe('WEFT_FIELD_TOO_LARGE')
  })
})

describe('multipart parts the schema does not name are not kept', () => {
  it('drops fields and files of no field of the schema', async () => {
    const Upload = Type.Object({ title: Type.String(), doc: Type.Optional(FileField()) })
    const app = await makeApp(async (request) => {
      const out = await bind(request).form(Upload)
      const form = await multipartForm(request)
      const count = (map: Record<string, unknown[]>) =>
        Object.fromEntries(Object.entries(map).map(([name, list]) => [name, list.length]))
      return { title: out.title, kept: count(form.value), files: count(form.file) }
    })
    const body = multipart([
      { name: 'title', value: 'T' },
      { name: 'junk', value: 'x'.repeat(1000) },
      { name: 'doc', filename: 'a.txt', type: 'text/plain', content: 'kept' },
      { name: 'spare', filename: 'b.bin', type: 'application/octet-stream', content: 'z'.repeat(5000) },
    ])
    const res = await app.inject({ method: 'POST', url: '/', ...body })
    // a dropped part stays listed without its value, so that its name can still be checked
    expect(res.json()).toEqual({ title: 'T', kept: { title: 1, junk: 0 }, files: { doc: 1, spare: 0 } })
  })

  it.each([
    ['a dropped file part', 'spare'],
    ['a kept file part', 'doc'],
  ])('answers 400 to a body that ends inside %s, and nothing is thrown outside the request', async (_name, part) => {
    const Upload = Type.Object({ title: Type.String(), doc: Type.Optional(FileField()) })
    const app = await makeApp((request) => bind(request).form(Upload))
    const uncaught: unknown[] = []
    const onUncaught = (error: unknown) => uncaught.push(error)
    process.on('uncaughtException', onUncaught)
    try {
      const payload =
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="${part}"; filename="b.bin"\r\n\r\nhalf a fi`
      const res = await app.inject({ method: 'POST', url: '/', headers, payload })
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'WEFT_MULTIPART_MALFORMED' })
      expect(uncaught).toEqual([])
    } finally {
      process.off('uncaughtException', onUncaught)
    }
  })

  it('still rejects an unknown field with ignoreUnknownKeys: false', async () => {
    const app = await makeApp((request) => bind(request).form(Title), { parserDecoder: { ignoreUnknownKeys: false } })
    const body = multipart([
      { name: 'title', value: 'T' },
      { name: 'junk', value: 'x' },
    ])
    const res = await app.inject({ method: 'POST', url: '/', ...body })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining('junk') })
  })

  it('keeps nested keys of a named field', async () => {
    const Posts = Type.Object({ posts: Type.Array(Type.Object({ title: Type.String() })) })
    const app = await makeApp((request) => bind(request).form(Posts))
    const body = multipart([
      { name: 'posts[0][title]', value: 'a' },
      { name: 'posts[1][title]', value: 'b' },
    ])
    expect((await app.inject({ method: 'POST', url: '/', ...body })).json()).toEqual({
      posts: [{ title: 'a' }, { title: 'b' }],
    })
  })
})

describe('multipart parts without a field name', () => {
  const Form = Type.Object({ b: Type.Optional(Type.String()), doc: Type.Optional(FileField()) })
  const parts = {
    'a text part': 'Content-Disposition: form-data',
    'a file part': 'Content-Disposition: form-data; filename="x.txt"',
    // busboy gives up on a header with this many parameters, the name among them
    'a part whose name comes after 15,000 parameters': `Content-Disposition: form-data${'; a="b"'.repeat(15_000)}; name="b"`,
  }
  const payloadWith = (disposition: string) => `--${boundary}\r\n${disposition}\r\n\r\nv\r\n--${boundary}--\r\n`

  it.each(Object.entries(parts))(
    'answers 400 to %s, and nothing is thrown outside the request',
    async (_name, disposition) => {
      const uncaught: unknown[] = []
      const onUncaught = (error: unknown) => uncaught.push(error)
      process.on('uncaughtException', onUncaught)
      try {
        for (const read of [
          (request: FastifyRequest) => bind(request).form(Form),
          (request: FastifyRequest) => multipartForm(request),
        ]) {
          const app = await makeApp(read)
          const res = await app.inject({ method: 'POST', url: '/', headers, payload: payloadWith(disposition) })
          await new Promise((resolve) => setTimeout(resolve, 20))
          expect(res.statusCode).toBe(400)
          expect(res.json()).toMatchObject({
            code: 'WEFT_MULTIPART_MALFORMED',
            message: expect.stringContaining('no field name'),
          })
        }
        expect(uncaught).toEqual([])
      } finally {
        process.off('uncaughtException', onUncaught)
      }
    },
  )

  it('answers 400 through an app-registered @fastify/multipart too', async () => {
    const { default: fastifyMultipart } = await import('@fastify/multipart')
    const app = Fastify()
    await app.register(fastifyMultipart)
    await app.register(weftBinding)
    app.post('/', (request) => bind(request).form(Form))
    for (const disposition of Object.values(parts)) {
      const res = await app.inject({ method: 'POST', url: '/', headers, payload: payloadWith(disposition) })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'WEFT_MULTIPART_MALFORMED' })
    }
  })
})

describe('malformed multipart bodies through an app-registered @fastify/multipart', () => {
  const Named = Type.Object({ name: Type.String({ form: 'the_name' }) })
  const bodies = {
    'no boundary': { headers: { 'content-type': 'multipart/form-data' }, payload: 'junk' },
    'a body cut short': {
      headers,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="the_name"\r\n\r\nab`,
    },
  }

  it.each(Object.entries(bodies))(
    'answers %s with 400 WEFT_MULTIPART_MALFORMED, in both plugin orders',
    async (_name, body) => {
      const { default: fastifyMultipart } = await import('@fastify/multipart')
      for (const multipartFirst of [true, false]) {
        const app = Fastify()
        if (multipartFirst) await app.register(fastifyMultipart)
        await app.register(weftBinding)
        if (!multipartFirst) await app.register(fastifyMultipart)
        app.post('/bound', (request) => bind(request).form(Named))
        app.post('/schema', { schema: { body: Named } }, (request) => request.body)
        for (const url of ['/bound', '/schema']) {
          const res = await app.inject({ method: 'POST', url, ...body })
          expect(res.statusCode, url).toBe(400)
          expect(res.json(), url).toMatchObject({ code: 'WEFT_MULTIPART_MALFORMED' })
        }
        const ok = multipart([{ name: 'the_name', value: 'ab' }])
        expect((await app.inject({ method: 'POST', url: '/schema', ...ok })).json()).toEqual({ name: 'ab' })
      }
    },
  )
})

describe('multipart bounds over a real socket', () => {
  let close: (() => Promise<unknown>) | undefined
  afterEach(async () => {
    await close?.()
    close = undefined
  })

  it('answers 413 to a large chunked upload without reading it all into memory', async () => {
    const app = Fastify({ bodyLimit: MiB, forceCloseConnections: true })
    await app.register(weftBinding)
    app.post('/', (request) => bind(request).form(Title))
    await app.listen({ port: 0, host: '127.0.0.1' })
    close = () => app.close()
    const { port } = app.server.address() as AddressInfo
    const { stream, read } = endlessFields(200 * MiB)
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/', headers })
    req.on('error', () => {})
    stream.pipe(req)
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage]
    res.resume()
    stream.unpipe(req)
    req.destroy()
    expect(res.statusCode).toBe(413)
    // the unread rest is not waited for: the server closes the connection after the answer
    expect(res.headers.connection).toBe('close')
    expect(read()).toBeLessThan(32 * MiB)
  })
})

describe('multipart through an app-registered @fastify/multipart', () => {
  it('is bounded by bodyLimit too (413) and drops parts the schema does not name', async () => {
    const { default: fastifyMultipart } = await import('@fastify/multipart')
    const app = Fastify({ bodyLimit: MiB })
    await app.register(fastifyMultipart)
    await app.register(weftBinding)
    app.post('/', async (request) => {
      const out = await bind(request).form(Type.Object({ f0: Type.String() }))
      const form = await multipartForm(request)
      return { f0: out.f0.length, kept: Object.keys(form.value).filter((name) => form.value[name]?.length) }
    })
    const large = await app.inject({ method: 'POST', url: '/', headers, payload: manyFields(40, 100 * 1024) })
    expect(large.statusCode).toBe(413)
    const small = await app.inject({ method: 'POST', url: '/', headers, payload: manyFields(3, 10) })
    expect(small.json()).toEqual({ f0: 10, kept: ['f0'] })
  })
})
