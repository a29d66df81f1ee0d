import type { FastifySchema } from 'fastify'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { type Ctx, handle } from './index.js'

const row = { id: 7, name: 'ada', passwordHash: '$2b$12$secret' }
const User = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
}
const Problem = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' } },
}
const problem = { code: 'NOT_FOUND', message: 'no such user', stack: 'at db.ts:12' }

async function respond(schema: FastifySchema | undefined, write: (c: Ctx) => unknown, accept?: string) {
  const app = await makeApp()
  app.get('/', { schema }, handle(write))
  return app.inject({ url: '/', headers: accept === undefined ? {} : { accept } })
}

/** Every way a chain sends an object as JSON, and how to read the JSON back from the body. */
const senders: [string, (c: Ctx, data: unknown) => unknown, string | undefined, (body: string) => unknown][] = [
  ['json()', (c, data) => c.json(data), undefined, JSON.parse],
  ['format() answering JSON', (c, data) => c.format(data), 'application/json', JSON.parse],
  [
    'format() answering HTML',
    (c, data) => c.format(data),
    'text/html',
    (b) => JSON.parse(unescapeHtml(b.slice(3, -4))),
  ],
  ['format() answering text', (c, data) => c.format(data), 'text/plain', JSON.parse],
  ['jsonp()', (c, data) => c.jsonp(data, 'cb'), undefined, (b) => JSON.parse(b.slice(b.indexOf('cb(') + 3, -2))],
  ['send() of an object', (c, data) => c.send(data), undefined, JSON.parse],
]

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
}

describe('objects sent through the route response schema', () => {
  describe.each(senders)('%s', (_name, send, accept, read) => {
    it('sends only the fields of schema.response[200]', async () => {
      const res = await respond({ response: { 200: User } }, (c) => send(c, row), accept)
      expect(res.statusCode).toBe(200)
      expect(read(res.body)).toEqual({ id: 7, name: 'ada' })
      expect(res.body).not.toContain('passwordHash')
    })

    it('uses the schema of the status set before (201)', async () => {
      const res = await respond({ response: { 200: Problem, 201: User } }, (c) => send(c.status(201), row), accept)
      expect(res.statusCode).toBe(201)
      expect(read(res.body)).toEqual({ id: 7, name: 'ada' })
    })

    it('uses the schema of a 4xx status', async () => {
      const res = await respond({ response: { 200: User, 404: Problem } }, (c) => send(c.status(404), problem), accept)
      expect(res.statusCode).toBe(404)
      expect(read(res.body)).toEqual({ code: 'NOT_FOUND', message: 'no such user' })
    })

    it("uses a '2xx' schema for 201", async () => {
      const res = await respond({ response: { '2xx': User } }, (c) => send(c.status(201), row), accept)
      expect(read(res.body)).toEqual({ id: 7, name: 'ada' })
    })

    it("uses the 'default' schema for a status without one of its own", async () => {
      const res = await respond(
        { response: { 200: User, default: Problem } },
        (c) => send(c.status(409), problem),
        accept,
      )
      expect(read(res.body)).toEqual({ code: 'NOT_FOUND', message: 'no such user' })
    })

    it('sends every field when the status has no schema', async () => {
      const res = await respond({ response: { 200: User } }, (c) => send(c.status(400), problem), accept)
      expect(read(res.body)).toEqual(problem)
    })

    it('sends every field, as JSON.stringify does, on a route without a response schema', async () => {
      const data = { b: 1, a: undefined, list: [undefined, 'é\u2028'], at: new Date(0) }
      const res = await respond(undefined, (c) => send(c, data), accept)
      expect(read(res.body)).toEqual(JSON.parse(JSON.stringify(data)))
    })
  })

  it('uses the schema of the status set after json() (the one sent)', async () => {
    const res = await respond({ response: { 200: Problem, 201: User } }, (c) => c.json(row).status(201))
    expect(res.json()).toEqual({ id: 7, name: 'ada' })
  })

  it('uses a schema keyed by the media type sent (content)', async () => {
    const schema = {
      response: {
        200: {
          content: {
            'application/json': { schema: User },
            'application/problem+json': { schema: Problem },
          },
        },
      },
    }
    expect((await respond(schema, (c) => c.json(row))).json()).toEqual({ id: 7, name: 'ada' })
    const typed = await respond(schema, (c) => c.json(problem, 'application/problem+json'))
    expect(typed.json()).toEqual({ code: 'NOT_FOUND', message: 'no such user' })
  })

  it("uses a content schema keyed '*/*' for any media type", async () => {
    const schema = { response: { 200: { content: { '*/*': { schema: User } } } } }
    const res = await respond(schema, (c) => c.json(row, 'application/vnd.user+json'))
    expect(res.json()).toEqual({ id: 7, name: 'ada' })
  })

  it('sends the same bytes as returning the object', async () => {
    const returned = await respond({ response: { 200: User } }, () => row)
    const sent = await respond({ response: { 200: User } }, (c) => c.json(row))
    expect(sent.body).toBe(returned.body)
  })

  it("uses the app's serializer compiler", async () => {
    const app = await makeApp()
    app.setSerializerCompiler(() => () => '"compiled"')
    app.get(
      '/',
      { schema: { response: { 200: User } } },
      handle((c) => c.json(row)),
    )
    expect((await app.inject('/')).body).toBe('"compiled"')
  })

  it("uses the app's reply serializer, as Fastify does for a returned object", async () => {
    const app = await makeApp()
    app.setReplySerializer((payload) => `custom:${Object.keys(payload as object).join(',')}`)
    app.get(
      '/',
      { schema: { response: { 200: User } } },
      handle((c) => c.json(row)),
    )
    app.get('/returned', { schema: { response: { 200: User } } }, async () => row)
    expect((await app.inject('/')).body).toBe((await app.inject('/returned')).body)
  })

  it('serializes a JSON body that write() appends to with the schema', async () => {
    const res = await respond({ response: { 200: User } }, (c) => {
      c.json(row)
      c.writeString('\n')
    })
    expect(res.body).toBe('{"id":7,"name":"ada"}\n')
  })

  it('answers a 500 when the body misses a field the schema requires, sending nothing of it', async () => {
    const Strict = { ...User, required: ['id', 'name'] }
    const res = await respond({ response: { 200: Strict } }, (c) => c.json({ id: 1, passwordHash: 'x' }))
    expect(res.statusCode).toBe(500)
    expect(res.body).not.toContain('passwordHash')
  })
})

describe('JSON bodies of routes without a response schema', () => {
  it.each([
    ['a string', 'hi', '"hi"'],
    ['undefined', undefined, 'null'],
    ['null', null, 'null'],
    ['a number', 1.5, '1.5'],
    ['an array', [1, 'a'], '[1,"a"]'],
  ])('json() of %s sends %s', async (_name, data, body) => {
    expect((await respond(undefined, (c) => c.json(data))).body).toBe(body)
  })

  it('send() of bytes or a string sends them as they are', async () => {
    const bytes = await respond(undefined, (c) => c.send(new Uint8Array([104, 105])))
    expect([bytes.body, bytes.headers['content-type']]).toEqual(['hi', 'application/octet-stream'])
    expect((await respond(undefined, (c) => c.send('hi'))).body).toBe('hi')
  })

  it('send() of undefined sends an empty body', async () => {
    const res = await respond(undefined, (c) => c.send(undefined))
    expect([res.statusCode, res.body]).toEqual([200, ''])
  })

  it('send() of an object keeps a Content-Type set before', async () => {
    const res = await respond(undefined, (c) => c.set('content-type', 'application/vnd.api+json').send({ a: 1 }))
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json\b/)
    expect(res.json()).toEqual({ a: 1 })
  })
})

describe("JSON bodies go through Fastify's own serialization, as a returned object does", () => {
  const wrapInData = async (app: Awaited<ReturnType<typeof makeApp>>) => {
    app.addHook('preSerialization', async (_request, _reply, payload) => ({ data: payload }))
  }

  it.each([
    ['json()', (c: Ctx) => c.json({ a: 1 })],
    ['send() of an object', (c: Ctx) => c.send({ a: 1 })],
    ['format() answering JSON', (c: Ctx) => c.format({ a: 1 })],
    ['json() of an array', (c: Ctx) => c.json([{ a: 1 }]).status(200)],
  ])('runs preSerialization hooks for %s', async (_name, write) => {
    const app = await makeApp()
    await wrapInData(app)
    app.get('/', handle(write))
    app.get('/returned', async () => ({ a: 1 }))
    const res = await app.inject({ url: '/', headers: { accept: 'application/json' } })
    expect(res.json().data).toBeDefined()
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    if (!res.body.startsWith('{"data":[')) expect(res.body).toBe((await app.inject('/returned')).body)
  })

  it("uses the app's reply serializer on a route without a response schema", async () => {
    const app = await makeApp()
    app.setReplySerializer((payload) =>
      JSON.stringify(payload, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)),
    )
    app.get(
      '/',
      handle((c) => c.json({ id: 10n ** 20n })),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ id: '100000000000000000000' })
  })

  it('uses a serializer set on the reply in the chain', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => {
        c.response().serializer(() => '{"from":"reply"}')
        return c.json({ a: 1 })
      }),
    )
    expect((await app.inject('/')).body).toBe('{"from":"reply"}')
  })

  it('keeps a +json Content-Type given to json(), with the hooks', async () => {
    const app = await makeApp()
    await wrapInData(app)
    app.get(
      '/',
      handle((c) => c.json({ a: 1 }, 'application/problem+json')),
    )
    const res = await app.inject('/')
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    expect(res.json()).toEqual({ data: { a: 1 } })
  })

  it('sends JSON text under a Content-Type that is not JSON, without the hooks', async () => {
    const app = await makeApp()
    await wrapInData(app)
    app.get(
      '/',
      handle((c) => c.json({ a: 1 }).set('content-type', 'text/plain; charset=utf-8')),
    )
    const res = await app.inject('/')
    expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([
      200,
      'text/plain; charset=utf-8',
      '{"a":1}',
    ])
  })

  it('gives onSend hooks the JSON text, as for a returned object', async () => {
    const app = await makeApp()
    const seen: unknown[] = []
    app.addHook('onSend', async (_request, _reply, payload) => {
      seen.push(payload)
      return payload
    })
    app.get(
      '/',
      handle((c) => c.json({ a: 1 })),
    )
    await app.inject('/')
    expect(seen).toEqual(['{"a":1}'])
  })

  it('sends bytes, errors and streams given to json() as JSON text, never as they are', async () => {
    const app = await makeApp()
    app.get(
      '/bytes',
      handle((c) => c.json(new Uint8Array([1, 2]))),
    )
    app.get(
      '/error',
      handle((c) => c.json(new Error('not an answer'))),
    )
    expect((await app.inject('/bytes')).body).toBe('{"0":1,"1":2}')
    const error = await app.inject('/error')
    expect([error.statusCode, error.body]).toEqual([200, '{}'])
  })
})
