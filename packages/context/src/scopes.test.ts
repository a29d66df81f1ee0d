import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { multipart } from '../test/multipart.js'
import { tempDir } from '../test/temp-dir.js'
import { handle, weftContext } from './index.js'

/** A directory holding one file, `name`, whose content is `text`. */
function dirWith(name: string, text: string): string {
  const dir = tempDir('weft-scope-')
  writeFileSync(join(dir, name), text)
  return dir
}

describe('weftContext registered at the root and again in a child scope', () => {
  async function app() {
    const app = Fastify()
    await app.register(weftContext, { root: dirWith('a.txt', 'root file') })
    app.get(
      '/file',
      handle((c) => c.sendFile('a.txt')),
    )
    app.get(
      '/ip',
      { config: { name: 'rootIp' } },
      handle((c) => c.sendString(c.ip())),
    )
    app.post(
      '/echo',
      handle((c) => c.sendString(c.body().toString())),
    )
    await app.register(
      async (child) => {
        await child.register(weftContext, { root: dirWith('a.txt', 'child file'), proxyHeader: 'X-Real-IP' })
        child.get(
          '/file',
          handle((c) => c.sendFile('a.txt')),
        )
        child.get(
          '/ip',
          handle((c) => c.sendString(c.ip())),
        )
        child.get(
          '/link',
          { config: { name: 'childLink' } },
          handle((c) => c.sendString(c.getRouteURL('rootIp'))),
        )
        child.post(
          '/echo',
          handle((c) => c.sendString(c.body().toString())),
        )
      },
      { prefix: '/child' },
    )
    return app
  }

  it('boots, and each scope has its own options (root, proxyHeader)', async () => {
    const server = await app()
    expect((await server.inject('/file')).body).toBe('root file')
    expect((await server.inject('/child/file')).body).toBe('child file')
    const headers = { 'x-real-ip': '203.0.113.9' }
    expect((await server.inject({ url: '/ip', headers })).body).toBe('127.0.0.1')
    expect((await server.inject({ url: '/child/ip', headers })).body).toBe('203.0.113.9')
  })

  it('names routes across the two (one route table)', async () => {
    const server = await app()
    expect((await server.inject('/child/link')).body).toBe('/ip')
  })

  it('keeps a body once for c.body() in the child', async () => {
    const server = await app()
    const res = await server.inject({
      method: 'POST',
      url: '/child/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    })
    expect([res.statusCode, res.body]).toEqual([200, 'hello'])
  })
})

describe('route names of sibling scopes, each with its own weftContext', () => {
  async function app() {
    const app = Fastify()
    await app.register(async (a) => {
      await a.register(weftContext)
      a.get(
        '/a',
        { config: { name: 'inA' } },
        handle((c) => c.sendString('a')),
      )
      a.get(
        '/to-b',
        handle((c) => c.redirectToRoute('inB')),
      )
      a.get(
        '/to-nowhere',
        handle((c) => c.redirectToRoute('nowhere')),
      )
    })
    await app.register(async (b) => {
      await b.register(weftContext)
      b.get(
        '/b',
        { config: { name: 'inB' } },
        handle((c) => c.sendString('b')),
      )
    })
    return app
  }

  it('fail with a 500 that says the name is in another weftContext scope, and what to do', async () => {
    const res = await (await app()).inject('/to-b')
    expect(res.statusCode).toBe(500)
    expect(res.json()).toMatchObject({
      code: 'WEFT_ROUTE_IN_OTHER_SCOPE',
      message: expect.stringMatching(
        /Route 'inB' is in a scope with its own registration of weftContext.*register weftContext once/,
      ),
    })
  })

  it('differ from a name no route carries', async () => {
    const res = await (await app()).inject('/to-nowhere')
    expect([res.statusCode, res.json().code]).toEqual([500, 'WEFT_ROUTE_NOT_FOUND'])
  })
})

/** The app's own `request.ctx` (its types are Weft's, hence the casts). */
function decorateOwnCtx(app: FastifyInstance): void {
  app.decorateRequest('ctx' as never, 'app value' as never)
}

describe('request.ctx', () => {
  it('decorated by the app first is a boot error that names the clash and what to do', async () => {
    const app = Fastify()
    decorateOwnCtx(app)
    await expect(app.register(weftContext)).rejects.toMatchObject({
      code: 'WEFT_CTX_DECORATOR_TAKEN',
      message: expect.stringMatching(/request\.ctx is decorated already.*decorateRequest: false/),
    })
  })

  it('is left to the app with decorateRequest: false, and handle() still gets the Ctx', async () => {
    const app = Fastify()
    decorateOwnCtx(app)
    await app.register(weftContext, { decorateRequest: false })
    app.get(
      '/',
      handle((c) => c.json({ path: c.path(), own: (c.request() as { ctx?: unknown }).ctx })),
    )
    expect((await app.inject('/')).json()).toEqual({ path: '/', own: 'app value' })
  })

  it('is undefined in a scope without weftContext', async () => {
    const app = Fastify()
    await app.register(async (withWeft) => {
      await withWeft.register(weftContext)
      withWeft.get('/with', async (request) => ({ ctx: request.ctx !== undefined }))
    })
    app.get('/without', async (request) => ({ ctx: request.ctx !== undefined }))
    expect((await app.inject('/with')).json()).toEqual({ ctx: true })
    expect((await app.inject('/without')).json()).toEqual({ ctx: false })
  })
})

describe('binding options given to weftContext', () => {
  const Named = Type.Object({ name: Type.String() })

  it('reach @weft/binding (binding.multipart: false makes a multipart body a 415)', async () => {
    const app = Fastify()
    await app.register(weftContext, { binding: { multipart: false } })
    app.post(
      '/',
      handle(async (c) => c.json(await c.bind().form(Named))),
    )
    const res = await app.inject({ method: 'POST', url: '/', ...multipart({ name: 'Ada' }, []) })
    expect(res.statusCode).toBe(415)
  })

  it('are a child scope’s own when given to its registration', async () => {
    const app = Fastify()
    const Tags = Type.Object({ tags: Type.Array(Type.String()) })
    await app.register(weftContext)
    app.get(
      '/',
      handle(async (c) => c.json(await c.bind().query(Tags))),
    )
    await app.register(
      async (child) => {
        await child.register(weftContext, { binding: { enableSplittingOnParsers: true } })
        child.get(
          '/',
          handle(async (c) => c.json(await c.bind().query(Tags))),
        )
      },
      { prefix: '/child' },
    )
    expect((await app.inject('/?tags=a,b')).json()).toEqual({ tags: ['a,b'] })
    expect((await app.inject('/child/?tags=a,b')).json()).toEqual({ tags: ['a', 'b'] })
  })
})
