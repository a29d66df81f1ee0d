import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { handle, weftContext } from '../../src/index.js'
import { orders } from './apps.js'

/** The app's own JSON parser: it marks what it parsed, so that a test sees which parser ran. */
function ownJsonParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    done(null, { ...JSON.parse(String(text)), parsedBy: 'app' })
  })
}

describe.each(orders)('an application/json parser of the app’s own (%s)', (order) => {
  async function app() {
    const app = Fastify()
    if (order === 'plugin first') ownJsonParser(app)
    await app.register(weftContext)
    if (order === 'weft first') ownJsonParser(app)
    app.post(
      '/',
      handle(async (c) =>
        c.json({
          bound: await c.bind().body(Type.Object({ name: Type.String(), parsedBy: Type.String() })),
          body: c.body().toString(),
        }),
      ),
    )
    app.post('/plain', async (request) => request.body)
    return app
  }
  const json = { 'content-type': 'application/json' }

  it('is kept: it parses the body that binds, and c.body() has the bytes', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/', headers: json, payload: '{"name":"Ada"}' })
    expect([res.statusCode, res.json()]).toEqual([
      200,
      { bound: { name: 'Ada', parsedBy: 'app' }, body: '{"name":"Ada"}' },
    ])
  })

  it('is the parser of plain handlers', async () => {
    const res = await (await app()).inject({ method: 'POST', url: '/plain', headers: json, payload: '{"name":"Ada"}' })
    expect([res.statusCode, res.json()]).toEqual([200, { name: 'Ada', parsedBy: 'app' }])
  })
})

describe('a parser of the app’s own for a type weft reads (XML), in a child scope after root routes', () => {
  it('is the child’s; the root keeps weft’s', async () => {
    const app = Fastify()
    await app.register(weftContext)
    app.post('/', async (request) => ({ buffer: Buffer.isBuffer(request.body) }))
    await app.register(async (child) => {
      child.addContentTypeParser('application/xml', { parseAs: 'string' }, (_request, text, done) =>
        done(null, { xml: String(text) }),
      )
      child.post('/child', async (request) => request.body)
    })
    const xml = { 'content-type': 'application/xml' }
    expect((await app.inject({ method: 'POST', url: '/', headers: xml, payload: '<a/>' })).json()).toEqual({
      buffer: true,
    })
    expect((await app.inject({ method: 'POST', url: '/child', headers: xml, payload: '<a/>' })).json()).toEqual({
      xml: '<a/>',
    })
  })
})
