import { request as httpRequest } from 'node:http'
import { weftBinding } from '@weft/binding'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { ctx, handle, weftContext } from './index.js'

describe('weftContext', () => {
  it('registers under its package name, with @weft/binding', async () => {
    const app = Fastify()
    await app.register(weftContext)
    await app.ready()
    expect(app.hasPlugin('@weft/context')).toBe(true)
    expect(app.hasPlugin('@weft/binding')).toBe(true)
  })

  it('keeps an already registered @weft/binding and its settings when given none', async () => {
    const app = Fastify()
    await app.register(weftBinding, { enableSplittingOnParsers: true })
    await app.register(weftContext)
    app.get(
      '/',
      handle(async (c) => c.json(await c.queryParser(Type.Object({ a: Type.Array(Type.String()) })))),
    )
    expect((await app.inject('/?a=x,y')).json()).toEqual({ a: ['x', 'y'] })
  })

  it('applies the binding settings it is given over those of an already registered @weft/binding', async () => {
    const app = Fastify()
    await app.register(weftBinding, { enableSplittingOnParsers: true })
    await app.register(weftContext, { enableSplittingOnParsers: false })
    app.get(
      '/',
      handle(async (c) => c.json(await c.queryParser(Type.Object({ a: Type.Array(Type.String()) })))),
    )
    expect((await app.inject('/?a=x,y')).json()).toEqual({ a: ['x,y'] })
  })

  it('passes enableSplittingOnParsers to @weft/binding', async () => {
    const app = Fastify()
    await app.register(weftContext, { enableSplittingOnParsers: false })
    app.get(
      '/',
      handle(async (c) => c.json(await c.queryParser(Type.Object({ a: Type.Array(Type.String()) })))),
    )
    expect((await app.inject('/?a=x,y')).json()).toEqual({ a: ['x,y'] })
  })

  it('passes structValidator to @weft/binding', async () => {
    const app = Fastify()
    await app.register(weftContext, {
      structValidator: {
        validate: () => {
          throw Object.assign(new Error('custom validator says no'), { statusCode: 422 })
        },
      },
    })
    app.get(
      '/',
      handle(async (c) => c.json(await c.queryParser(Type.Object({ a: Type.String() })))),
    )
    const res = await app.inject('/?a=x')
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toBe('custom validator says no')
  })

  it('makes request.ctx available in hooks after routing', async () => {
    const app = Fastify()
    await app.register(weftContext)
    app.addHook('preHandler', async (request) => {
      request.ctx!.locals('seen', request.ctx!.path())
    })
    app.get(
      '/p',
      handle((c) => c.sendString(String(c.locals('seen')))),
    )
    expect((await app.inject('/p')).body).toBe('/p')
  })

  it('makes request.ctx available in onRequest hooks added after weftContext', async () => {
    const app = Fastify()
    await app.register(weftContext)
    app.addHook('onRequest', async (request) => {
      request.ctx!.locals('early', request.ctx!.path())
    })
    app.get(
      '/p',
      handle((c) => c.sendString(String(c.locals('early')))),
    )
    expect((await app.inject('/p')).body).toBe('/p')
  })

  it('explains that request.ctx needs ctx(request, reply) in hooks that run before weftContext', async () => {
    const app = Fastify()
    app.addHook('onRequest', async (request, reply) => {
      if (request.url === '/early') request.ctx!.path()
      else ctx(request, reply).locals('early', true)
    })
    await app.register(weftContext)
    app.get('/early', async () => 'never')
    app.get(
      '/ok',
      handle((c) => c.json(c.locals('early'))),
    )
    const res = await app.inject('/early')
    expect(res.statusCode).toBe(500)
    expect(res.json().code).toBe('WEFT_CTX_UNAVAILABLE')
    expect(res.json().message).toContain('ctx(request, reply)')
    expect((await app.inject('/ok')).json()).toBe(true)
  })

  it('closes locals when the client aborts', async () => {
    const app = Fastify()
    await app.register(weftContext)
    let closed!: () => void
    const wasClosed = new Promise<void>((resolve) => {
      closed = resolve
    })
    let started!: () => void
    const wasStarted = new Promise<void>((resolve) => {
      started = resolve
    })
    app.get(
      '/slow',
      handle(async (c) => {
        c.locals('resource', { close: closed })
        started()
        await wasClosed
        c.sendString('late')
      }),
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    const req = httpRequest({ host: '127.0.0.1', port, path: '/slow' })
    req.on('error', () => {})
    req.end()
    await wasStarted
    req.destroy()
    await wasClosed
    await app.close()
  })
})
