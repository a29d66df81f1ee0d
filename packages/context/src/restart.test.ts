import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle } from './index.js'

type Step = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler'

/** An auth check that answers 401 unless the request carries the admin token. */
async function denyWithoutToken(request: FastifyRequest, reply: FastifyReply) {
  if (request.headers['x-token'] !== 'admin') return reply.code(401).send({ error: 'unauthorized' })
}

/** `/public` moves itself to `/admin` and restarts routing. */
function addPublic(app: FastifyInstance) {
  app.get(
    '/public',
    handle((c) => c.path('/admin') && c.restartRouting()),
  )
}

describe('restartRouting runs the hooks of the route it goes to', () => {
  it.each<Step>(['onRequest', 'preValidation', 'preHandler'])(
    'a route-level %s auth hook of the new route answers 401 instead of its handler',
    async (step) => {
      const app = await makeApp()
      app.get(
        '/admin',
        { [step]: denyWithoutToken },
        handle((c) => c.sendString('admin secrets')),
      )
      addPublic(app)
      const res = await app.inject('/public')
      expect(res.statusCode).toBe(401)
      expect(res.body).not.toContain('admin secrets')
      const allowed = await app.inject({ url: '/public', headers: { 'x-token': 'admin' } })
      expect(allowed.body).toBe('admin secrets')
    },
  )

  it('a route-level preParsing hook runs too', async () => {
    const app = await makeApp()
    const preParsing = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (request.headers['x-token'] !== 'admin') return reply.code(401).send({ error: 'unauthorized' })
      return payload
    }
    app.get(
      '/admin',
      { preParsing },
      handle((c) => c.sendString('admin secrets')),
    )
    addPublic(app)
    expect((await app.inject('/public')).statusCode).toBe(401)
  })

  it('a callback-style hook that fails with an error answers with that error', async () => {
    const app = await makeApp()
    const onRequest = (_request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      done(Object.assign(new Error('no entry'), { statusCode: 403 }))
    }
    app.get(
      '/admin',
      { onRequest },
      handle((c) => c.sendString('admin secrets')),
    )
    addPublic(app)
    const res = await app.inject('/public')
    expect(res.statusCode).toBe(403)
    expect(res.json().message).toBe('no entry')
  })

  it("the hooks of the new route's plugin run (an auth plugin around /admin)", async () => {
    const app = await makeApp()
    await app.register(async (admin) => {
      admin.addHook('onRequest', denyWithoutToken)
      admin.get(
        '/admin',
        handle((c) => c.sendString('admin secrets')),
      )
    })
    addPublic(app)
    expect((await app.inject('/public')).statusCode).toBe(401)
    expect((await app.inject({ url: '/public', headers: { 'x-token': 'admin' } })).body).toBe('admin secrets')
  })

  it('a plain Fastify handler behind an auth hook is protected too', async () => {
    const app = await makeApp()
    app.get('/admin', { preHandler: denyWithoutToken }, async () => 'admin secrets')
    app.get('/public', async (request) => {
      request.ctx!.path('/admin')
      return request.ctx!.restartRouting()
    })
    expect((await app.inject('/public')).statusCode).toBe(401)
  })

  it('hooks that already ran for the request do not run again', async () => {
    const app = await makeApp()
    const runs: string[] = []
    app.addHook('onRequest', async (request) => {
      runs.push(`app ${request.url}`)
    })
    const shared = async () => {
      runs.push('shared')
    }
    app.get(
      '/target',
      { preHandler: [shared, async () => void runs.push('target')] },
      handle((c) => c.sendString('done')),
    )
    app.get(
      '/start',
      { preHandler: shared },
      handle((c) => c.path('/target') && c.restartRouting()),
    )
    expect((await app.inject('/start')).body).toBe('done')
    expect(runs).toEqual(['app /start', 'shared', 'target'])
  })

  it('the body is still there for the new route', async () => {
    const app = await makeApp()
    app.post(
      '/target',
      { preHandler: async () => {} },
      handle((c) => c.json({ body: c.request().body, raw: c.body().toString() })),
    )
    app.post(
      '/start',
      handle((c) => c.path('/target') && c.restartRouting()),
    )
    const res = await app.inject({ method: 'POST', url: '/start', payload: { a: 1 } })
    expect(res.json()).toEqual({ body: { a: 1 }, raw: '{"a":1}' })
  })
})
