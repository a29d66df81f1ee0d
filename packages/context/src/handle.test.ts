import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { Ctx, ctx, handle, weftContext } from './index.js'

describe('handle', () => {
  it('sends the buffered status, headers and body once the chain settles', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => {
        c.sendString('hello')
        c.set('X-Order', 'body-first').status(201)
      }),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(201)
    expect(res.headers['x-order']).toBe('body-first')
    expect(res.body).toBe('hello')
  })

  it('gives every function the same Ctx, an instance of Ctx, also as request.ctx and ctx(request, reply)', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(
        (c) => {
          c.locals('first', c)
          return c.next()
        },
        (c) => ({
          same: c.locals('first') === c && c.request().ctx === c && ctx(c.request(), c.response()) === c,
          instance: c instanceof Ctx && c.constructor === Ctx,
          fresh: Object.keys(c).every((key) => key.startsWith('_')),
        }),
      ),
    )
    expect((await app.inject('/')).json()).toEqual({ same: true, instance: true, fresh: true })
  })

  it('runs the chain in order through next()', async () => {
    const app = await makeApp()
    const seen: string[] = []
    app.get(
      '/',
      handle(
        async (c) => {
          seen.push('a')
          await c.next()
          seen.push('a-after')
        },
        async (c) => {
          seen.push('b')
          c.sendString('done')
        },
      ),
    )
    const res = await app.inject('/')
    expect(res.body).toBe('done')
    expect(seen).toEqual(['a', 'b', 'a-after'])
  })

  it('lets a middleware stop the chain by not calling next()', async () => {
    const app = await makeApp()
    const guard = (c: import('./index.js').Ctx) => (c.get('x-role') === 'admin' ? c.next() : c.sendStatus(403))
    app.get(
      '/admin',
      handle(guard, (c) => c.sendString('ok')),
    )
    expect((await app.inject('/admin')).statusCode).toBe(403)
    expect((await app.inject('/admin')).body).toBe('Forbidden')
    const ok = await app.inject({ url: '/admin', headers: { 'x-role': 'admin' } })
    expect(ok.body).toBe('ok')
  })

  it('sends a returned value as Fastify would when no body was set', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(async (c) => {
        c.status(202)
        return { ok: true }
      }),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(202)
    expect(res.json()).toEqual({ ok: true })
  })

  it('prefers the buffered body over a returned chainable Ctx', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => c.status(200).sendString('x')),
    )
    expect((await app.inject('/')).body).toBe('x')
  })

  it('sends an empty 200 when nothing was set', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(() => undefined),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
  })

  it('passes a thrown error to the error handler', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(async () => {
        throw Object.assign(new Error('nope'), { statusCode: 418 })
      }),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(418)
    expect(res.json().message).toBe('nope')
  })

  it('passes an error thrown synchronously by the first function to the error handler', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(() => {
        throw Object.assign(new Error('sync nope'), { statusCode: 409 })
      }),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toBe('sync nope')
  })

  it('hands over what a chain that settled synchronously leaves to send as a resolved promise, not a value', async () => {
    const app = await makeApp()
    const returned: unknown[] = []
    const plain = handle(() => ({ sync: true }))
    const buffered = handle((c) => c.status(203).json({ buffered: true }))
    app.get('/plain', (request, reply) => {
      returned.push(plain(request, reply))
      return returned.at(-1)
    })
    app.get('/buffered', async (request, reply) => {
      // an async handler of the app's own may await it
      const value = await buffered(request, reply)
      returned.push(value)
      return value
    })
    const res = await app.inject('/plain')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ sync: true })
    const other = await app.inject('/buffered')
    expect(other.statusCode).toBe(203)
    expect(other.json()).toEqual({ buffered: true })
    expect(other.headers['content-type']).toBe('application/json; charset=utf-8')
    // Fastify sends a promise's value from the microtask queue, not from inside Node's HTTP parser
    expect(returned[0]).toBeInstanceOf(Promise)
    await expect(returned[0]).resolves.toEqual({ sync: true })
    // a JSON body is handed over as the object, for Fastify to serialize as a returned one
    expect(returned[1]).toEqual({ buffered: true })
  })

  it('returns an awaitable for a chain still running, resolving to what is to be sent', async () => {
    const app = await makeApp()
    const handler = handle(async (c) => {
      await Promise.resolve()
      c.status(202).json({ later: true })
    })
    let awaited: unknown
    app.get('/', async (request, reply) => {
      // a handler of the app's own that awaits Weft's, then hands Fastify what it resolved to
      awaited = await handler(request, reply)
      return awaited
    })
    const res = await app.inject('/')
    expect(res.statusCode).toBe(202)
    expect(res.json()).toEqual({ later: true })
    expect(awaited).toEqual({ later: true })
  })

  it('passes a rejection of a chain still running to the error handler, even a non-Error value', async () => {
    const app = await makeApp()
    app.setErrorHandler((error, _request, reply) => {
      reply.code(422).send({ caught: String(error) })
    })
    app.get(
      '/',
      handle(async () => {
        await Promise.resolve()
        throw 'not an Error'
      }),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(422)
    expect(res.json()).toEqual({ caught: 'not an Error' })
  })

  it('does not send twice when the reply was sent directly', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(async (c) => {
        c.response().send('direct')
        c.sendString('ignored')
      }),
    )
    expect((await app.inject('/')).body).toBe('direct')
  })

  it('leaves a reply sent directly with a stream alone when the chain returns the reply', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(async (c) => {
        const { Readable } = await import('node:stream')
        return c.response().send(Readable.from(['streamed']))
      }),
    )
    expect((await app.inject('/')).body).toBe('streamed')
  })

  it('resolves next() to undefined after the last function', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(async (c) => c.sendString(String(await c.next()))),
    )
    expect((await app.inject('/')).body).toBe('undefined')
  })

  it('sends once, without Fastify warning about a reply sent twice', async () => {
    const lines: string[] = []
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } } })
    app.get(
      '/a',
      handle((c) => c.sendString('a')),
    )
    app.get(
      '/b',
      handle(async (c) => {
        c.response().send('b')
      }),
    )
    app.get(
      '/c',
      handle(() => undefined),
    )
    for (const url of ['/a', '/b', '/c']) expect((await app.inject(url)).statusCode).toBe(200)
    expect(lines).toEqual([])
  })

  it('answers HEAD requests of GET routes with headers only', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => c.set('X-A', '1').sendString('body')),
    )
    const res = await app.inject({ method: 'HEAD', url: '/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-a']).toBe('1')
    expect(res.body).toBe('')
  })

  it('works as the not-found handler, as does request.ctx', async () => {
    const app = await makeApp()
    app.setNotFoundHandler(handle((c) => c.status(404).json({ path: c.path() })))
    expect((await app.inject('/nope')).json()).toEqual({ path: '/nope' })
    const plain = await makeApp()
    plain.setNotFoundHandler(async (request, reply) => reply.code(404).send({ path: request.ctx!.path() }))
    expect((await plain.inject('/gone')).json()).toEqual({ path: '/gone' })
  })

  it('refuses an empty chain', () => {
    expect(() => handle()).toThrow(TypeError)
  })

  it('works without the plugin registered', async () => {
    const app = Fastify()
    app.get(
      '/:id',
      handle((c) => c.sendString(c.params('id'))),
    )
    expect((await app.inject('/7')).body).toBe('7')
  })
})

describe('request.ctx and ctx()', () => {
  it('gives one Ctx per request, the same through request.ctx, ctx() and handle()', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle(async (c) => {
        const request = c.request()
        c.sendString(String(request.ctx === c && ctx(request, c.response()) === c))
      }),
    )
    expect((await app.inject('/')).body).toBe('true')
  })

  it('is usable from a plain Fastify handler', async () => {
    const app = await makeApp()
    app.get('/q', async (request) => request.ctx!.query('name', 'anon'))
    expect((await app.inject('/q?name=ada')).body).toBe('ada')
    expect((await app.inject('/q')).body).toBe('anon')
  })

  it('exposes the Fastify request, reply, raw objects and app', async () => {
    const app = await makeApp()
    app.get('/', async (request, reply) => {
      const c = ctx(request, reply)
      return {
        request: c.request() === request,
        reply: c.response() === reply,
        raw: c.context().req === request.raw && c.context().res === reply.raw,
        app: c.app() === app,
      }
    })
    expect((await app.inject('/')).json()).toEqual({ request: true, reply: true, raw: true, app: true })
  })

  it('gives each app its own plugin options when requests to several apps interleave', async () => {
    const proxied = Fastify()
    await proxied.register(weftContext, { proxyHeader: 'X-Real-IP' })
    const direct = Fastify()
    await direct.register(weftContext)
    for (const app of [proxied, direct])
      app.get(
        '/ip',
        handle((c) => c.sendString(c.ip())),
      )
    const headers = { 'x-real-ip': '203.0.113.7' }
    const answers: string[] = []
    for (let i = 0; i < 2; i++) {
      answers.push((await proxied.inject({ url: '/ip', headers })).body)
      answers.push((await direct.inject({ url: '/ip', headers, remoteAddress: '192.0.2.1' })).body)
    }
    expect(answers).toEqual(['203.0.113.7', '192.0.2.1', '203.0.113.7', '192.0.2.1'])
  })
})
