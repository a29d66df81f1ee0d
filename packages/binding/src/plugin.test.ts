import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { multipart } from '../test/helpers.js'
import { bind, setParserDecoder, weftBinding } from './index.js'

const Named = Type.Object({ name: Type.String({ default: 'anonymous' }) })

describe('weftBinding', () => {
  it('registers under its package name', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    await app.ready()
    expect(app.hasPlugin('@weft/binding')).toBe(true)
  })

  it('is not needed for bind() on plain routes (defaults apply)', async () => {
    const app = Fastify()
    const schema = Type.Object({ tags: Type.Array(Type.String()), page: Type.Integer({ default: 1 }) })
    app.get('/', (request) => bind(request).query(schema))
    app.post('/', (request) => bind(request).json(Named))
    expect((await app.inject({ url: '/?tags=a,b' })).json()).toEqual({ tags: ['a,b'], page: 1 })
    expect((await app.inject({ method: 'POST', url: '/', payload: {} })).json()).toEqual({ name: 'anonymous' })
  })

  it('leaves an existing form parser in place', async () => {
    const app = Fastify()
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
      done(null, { name: `custom:${body}` }),
    )
    await app.register(weftBinding)
    app.post('/', (request) => bind(request).form(Named))
    const res = await app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'x',
    })
    expect(res.json()).toEqual({ name: 'custom:x' })
  })

  it("leaves multipart bodies to Fastify's 415 with multipart: false", async () => {
    const app = Fastify()
    await app.register(weftBinding, { multipart: false })
    app.post('/', (request) => bind(request).form(Named))
    const res = await app.inject({ method: 'POST', url: '/', ...multipart([{ name: 'name', value: 'x' }]) })
    expect(res.statusCode).toBe(415)
  })

  it('settings of one app do not leak into another', async () => {
    const splitting = Fastify()
    await splitting.register(weftBinding, { enableSplittingOnParsers: true })
    const plain = Fastify()
    const schema = Type.Object({ tags: Type.Array(Type.String()) })
    for (const app of [splitting, plain]) app.get('/', (request) => bind(request).query(schema))
    expect((await splitting.inject({ url: '/?tags=a,b' })).json()).toEqual({ tags: ['a', 'b'] })
    expect((await plain.inject({ url: '/?tags=a,b' })).json()).toEqual({ tags: ['a,b'] })
  })

  it('works in encapsulated child contexts', async () => {
    const app = Fastify()
    await app.register(weftBinding, { enableSplittingOnParsers: true })
    await app.register(async (child) => {
      child.get('/child', (request) => bind(request).query(Type.Object({ tags: Type.Array(Type.String()) })))
    })
    expect((await app.inject({ url: '/child?tags=a,b' })).json()).toEqual({ tags: ['a', 'b'] })
  })

  it('uses each context’s own settings, requests alternating, and settings given after a request', async () => {
    const app = Fastify()
    await app.register(weftBinding)
    const Strict = Type.Object({ name: Type.Optional(Type.String()) })
    app.get('/', (request) => bind(request).query(Strict))
    let strictChild: Parameters<typeof setParserDecoder>[0] | undefined
    await app.register(async (child) => {
      strictChild = child
      child.get('/child', (request) => bind(request).query(Strict))
    })
    await app.ready()
    // the child inherits the parent's settings (unknown keys ignored) until it gets its own
    expect((await app.inject({ url: '/child?name=a&extra=1' })).statusCode).toBe(200)
    setParserDecoder(strictChild!, { ignoreUnknownKeys: false })
    for (let i = 0; i < 2; i++) {
      expect((await app.inject({ url: '/child?name=a&extra=1' })).statusCode).toBe(400)
      expect((await app.inject({ url: '/?name=a&extra=1' })).statusCode).toBe(200)
    }
  })
})
