import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { bind, type CustomBinder, registerCustomBinder, setParserDecoder, weftBinding } from './index.js'

// "k=v" lines; reads the bytes the plugin keeps for the binder's MIME types
const lines: CustomBinder = {
  name: 'lines',
  mimeTypes: ['text/x-lines', 'application/x-lines'],
  parse(request) {
    const body = request.body
    if (!Buffer.isBuffer(body) && typeof body !== 'string') throw new Error('no bytes')
    return Object.fromEntries(
      String(body)
        .split('\n')
        .map((line) => line.split('=')),
    )
  },
}

const Schema = Type.Object({ name: Type.String() })

function routes(app: FastifyInstance): void {
  app.post('/custom', (request) => bind(request).custom('lines', Schema))
  app.post('/body', (request) => bind(request).body(Schema))
}

const post = (app: FastifyInstance, url: string, type = 'text/x-lines') =>
  app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload: 'name=bolt' })

describe('custom binders are reachable', () => {
  it.each([
    ['registerCustomBinder()', false],
    ['the customBinders option', true],
  ])('%s makes Fastify accept the binder MIME types (custom() and body())', async (_name, viaOption) => {
    const app = Fastify()
    await app.register(weftBinding, viaOption ? { customBinders: [lines] } : {})
    if (!viaOption) registerCustomBinder(app, lines)
    routes(app)
    for (const url of ['/custom', '/body']) {
      for (const type of ['text/x-lines', 'application/x-lines; charset=utf-8', 'Text/X-Lines']) {
        const res = await post(app, url, type)
        expect({ url, type, status: res.statusCode, body: res.json() }).toEqual({
          url,
          type,
          status: 200,
          body: { name: 'bolt' },
        })
      }
    }
  })

  it('works without the plugin registered', async () => {
    const app = Fastify()
    registerCustomBinder(app, lines)
    routes(app)
    expect((await post(app, '/body')).json()).toEqual({ name: 'bolt' })
  })

  it('reaches the routes of child contexts created after it', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    registerCustomBinder(app, lines)
    await app.register(async (child) => routes(child), { prefix: '/child' })
    expect((await post(app, '/child/body')).json()).toEqual({ name: 'bolt' })
    expect((await post(app, '/child/custom')).json()).toEqual({ name: 'bolt' })
  })

  it('registered in a child context, stays in that context', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    await app.register(
      async (child) => {
        registerCustomBinder(child, lines)
        routes(child)
      },
      { prefix: '/child' },
    )
    await app.register(async (sibling) => routes(sibling), { prefix: '/sibling' })
    routes(app)
    expect((await post(app, '/child/custom')).json()).toEqual({ name: 'bolt' })
    expect((await post(app, '/child/body')).json()).toEqual({ name: 'bolt' })
    expect((await post(app, '/body')).statusCode).toBe(415)
    expect((await post(app, '/sibling/body')).statusCode).toBe(415)
    const custom = await app.inject({ method: 'POST', url: '/sibling/custom' })
    expect(custom.json().code).toBe('WEFT_UNKNOWN_BINDER')
  })

  it('setParserDecoder in a child context does not change the parent', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    const Q = Type.Object({ a: Type.Optional(Type.String()) })
    await app.register(async (child) => {
      setParserDecoder(child, { ignoreUnknownKeys: false })
      child.get('/strict', (request) => bind(request).query(Q))
    })
    app.get('/loose', (request) => bind(request).query(Q))
    expect((await app.inject({ url: '/strict?b=1' })).statusCode).toBe(400)
    expect((await app.inject({ url: '/loose?b=1' })).statusCode).toBe(200)
  })

  it('keeps a parser the app registered for the type first', async () => {
    const app = Fastify()
    app.addContentTypeParser('text/x-lines', { parseAs: 'string' }, (_r, body, done) => done(null, `${body}`))
    registerCustomBinder(app, lines)
    routes(app)
    expect((await post(app, '/body')).json()).toEqual({ name: 'bolt' })
  })
})
