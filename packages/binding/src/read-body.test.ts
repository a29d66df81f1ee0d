import { Buffer } from 'node:buffer'
import { Readable, Transform } from 'node:stream'
import Fastify, { type FastifyInstance, type FastifyServerOptions, type InjectOptions } from 'fastify'
import { describe, expect, it } from 'vitest'
import { bodyBytes, registerCustomBinder, weftBinding } from './index.js'

// Binding reads the bodies it keeps itself (read-body.ts), no longer through Fastify's
// `parseAs: 'buffer'`: each case is sent to an app with binding's parser and to one with Fastify's,
// and both must answer alike (status, error code, the bytes read).

type Setup = (app: FastifyInstance) => void
const TYPE = 'application/x-raw'

type AppOptions = { bodyLimit?: number; routeLimit?: number; logger?: FastifyServerOptions['logger'] }

/** An app whose route answers the bytes of the body, as binding's parser kept them. */
async function bindingApp(options: AppOptions, setup?: Setup) {
  const app = Fastify({ bodyLimit: options.bodyLimit, logger: options.logger })
  await app.register(weftBinding)
  registerCustomBinder(app, { name: 'raw', mimeTypes: [TYPE], parse: () => ({}) })
  setup?.(app)
  app.post('/', { bodyLimit: options.routeLimit }, async (request) => ({
    bytes: bodyBytes(request)?.toString('base64') ?? null,
  }))
  return app
}

/** `bindingApp()` with a logger: the messages it logs at warning level and above. */
async function loggedApp(options: AppOptions, setup?: Setup) {
  const warnings: string[] = []
  const stream = {
    write(line: string) {
      const entry = JSON.parse(line)
      if (entry.level >= 40) warnings.push(entry.msg)
    },
  }
  const app = await bindingApp({ ...options, logger: { stream, level: 'warn' } }, setup)
  return { app, warnings }
}

/** The same route with Fastify's own buffer parser. */
async function fastifyApp(options: AppOptions, setup?: Setup) {
  const app = Fastify({ bodyLimit: options.bodyLimit })
  app.addContentTypeParser(TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
  setup?.(app)
  app.post('/', { bodyLimit: options.routeLimit }, async (request) => ({
    bytes: (request.body as Buffer).toString('base64'),
  }))
  return app
}

type Case = {
  name: string
  options?: AppOptions
  setup?: Setup
  request: () => InjectOptions
  expected: { status: number; code?: string; bytes?: string }
}

const post = (payload: InjectOptions['payload'], headers: Record<string, string> = {}): InjectOptions => ({
  method: 'POST',
  url: '/',
  headers: { 'content-type': TYPE, ...headers },
  payload,
})

/** A `preParsing` hook that puts `stream(payload)` in the request's place. */
const replacing =
  (stream: (payload: NodeJS.ReadableStream) => NodeJS.ReadableStream): Setup =>
  (app) => {
    app.addHook('preParsing', async (_request, _reply, payload) => stream(payload))
  }

/** A stream that reads the request and emits `out` instead, once it has read all of it. */
const emitting = (out: (string | Buffer)[], extra: Record<string, unknown> = {}) =>
  replacing((payload) => {
    const stream = new Transform({
      transform(_chunk, _encoding, callback) {
        callback()
      },
      flush(callback) {
        for (const piece of out) this.push(piece)
        callback()
      },
    })
    const { encoding, ...fields } = extra
    Object.assign(stream, fields)
    if (typeof encoding === 'string') stream.setEncoding(encoding as BufferEncoding)
    return payload.pipe(stream)
  })

const cases: Case[] = [
  {
    name: 'a body within the limits',
    request: () => post('hello'),
    expected: { status: 200, bytes: Buffer.from('hello').toString('base64') },
  },
  {
    name: 'a body in several chunks, a character split between two',
    request: () => post(Readable.from([Buffer.from('ab\xc3', 'latin1'), Buffer.from('\xa9cd', 'latin1'), 'ef'])),
    expected: { status: 200, bytes: Buffer.from('abécdef').toString('base64') },
  },
  {
    name: 'an empty body',
    request: () => post(''),
    expected: { status: 200, bytes: '' },
  },
  {
    name: "a declared length over the route's bodyLimit",
    options: { routeLimit: 8 },
    request: () => post('123456789'),
    expected: { status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
  },
  {
    name: "a declared length over the server's bodyLimit",
    options: { bodyLimit: 8 },
    request: () => post('123456789'),
    expected: { status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
  },
  {
    name: 'a body of no declared length that grows over the limit',
    options: { routeLimit: 8 },
    request: () => post(Readable.from([Buffer.from('12345'), Buffer.from('67890'), Buffer.from('abcde')])),
    expected: { status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
  },
  {
    name: 'a body exactly at the limit',
    options: { routeLimit: 8 },
    request: () => post('12345678'),
    expected: { status: 200, bytes: Buffer.from('12345678').toString('base64') },
  },
  {
    name: 'a preParsing stream of another length than declared',
    setup: emitting(['longer than what came']),
    request: () => post('short'),
    expected: { status: 400, code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' },
  },
  {
    name: 'a decoding preParsing stream that says how much it received',
    setup: emitting(['decoded, longer than what came'], { receivedEncodedLength: 5 }),
    request: () => post('short'),
    expected: { status: 200, bytes: Buffer.from('decoded, longer than what came').toString('base64') },
  },
  {
    name: 'a decoding preParsing stream that received more than the limit',
    options: { routeLimit: 8 },
    setup: emitting(['small'], { receivedEncodedLength: 9 }),
    request: () => post(Readable.from(['tiny'])),
    expected: { status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
  },
  {
    name: 'a preParsing stream that emits text',
    setup: emitting(['text ', 'é'], { receivedEncodedLength: 5, encoding: 'utf8' }),
    request: () => post('12345'),
    expected: { status: 200, bytes: Buffer.from('text é').toString('base64') },
  },
  {
    name: 'a preParsing stream that fails',
    setup: replacing(
      () =>
        new Readable({
          read() {
            this.destroy(new Error('the stream broke'))
          },
        }),
    ),
    request: () => post('hello'),
    expected: { status: 400 },
  },
  {
    name: 'a preParsing stream that fails with a status of its own',
    setup: replacing(
      () =>
        new Readable({
          read() {
            this.destroy(Object.assign(new Error('unprocessable'), { statusCode: 422 }))
          },
        }),
    ),
    request: () => post('hello'),
    expected: { status: 422 },
  },
  {
    name: 'a preParsing stream handed on paused',
    setup: replacing((payload) => payload.pipe(new Transform({ transform: (c, _e, cb) => cb(null, c) })).pause()),
    request: () => post('paused'),
    expected: { status: 200, bytes: Buffer.from('paused').toString('base64') },
  },
]

describe("binding's body reader, next to Fastify's", () => {
  it.each(cases)('$name', async ({ options = {}, setup, request, expected }) => {
    const answers = []
    for (const make of [bindingApp, fastifyApp]) {
      const app = await make(options, setup)
      const res = await app.inject(request())
      const body = res.json()
      answers.push({ status: res.statusCode, code: body.code, bytes: body.bytes })
      await app.close()
    }
    expect(answers[0]).toMatchObject(expected)
    expect(answers[0]).toEqual(answers[1])
  })

  it('answers a declared length over the limit before the body arrives', async () => {
    const app = await bindingApp({ routeLimit: 8 })
    // a body that never ends: only the declared length can answer it
    const res = await app.inject(post(new Readable({ read() {} }), { 'content-length': '9' }))
    expect([res.statusCode, res.json().code]).toEqual([413, 'FST_ERR_CTP_BODY_TOO_LARGE'])
    await app.close()
  })

  it('answers once when a body grows on past the limit, and logs no second answer', async () => {
    const { app, warnings } = await loggedApp({ routeLimit: 8 })
    const res = await app.inject(post(Readable.from(['12345', '67890', 'abcde', 'fghij'])))
    expect([res.statusCode, res.json().code]).toEqual([413, 'FST_ERR_CTP_BODY_TOO_LARGE'])
    await app.close()
    expect(warnings).toEqual([])
  })

  it('answers once when a stream fails after its end, and logs no second answer', async () => {
    const { app, warnings } = await loggedApp(
      {},
      replacing(() => {
        const stream = new Readable({ read() {} })
        stream.push('done')
        stream.push(null)
        stream.once('end', () => setImmediate(() => stream.emit('error', new Error('late'))))
        return Object.assign(stream, { receivedEncodedLength: 4 })
      }),
    )
    const res = await app.inject(post('done'))
    expect([res.statusCode, res.json().bytes]).toEqual([200, Buffer.from('done').toString('base64')])
    await new Promise((resolve) => setTimeout(resolve, 20))
    await app.close()
    expect(warnings).toEqual([])
  })
})
