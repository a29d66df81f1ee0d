import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { routeMethods } from './index.js'

let app: FastifyInstance
afterEach(() => app?.close())

/** An app whose not-found handler answers 405 with `Allow`, as the README shows. */
async function start(options: FastifyServerOptions = {}) {
  app = Fastify(options)
  app.addHttpMethod('PROPFIND')
  const methodsOf = routeMethods(app)
  app.setNotFoundHandler((request, reply) => {
    const allowed = methodsOf(request.url)
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return reply.code(405).header('allow', allowed.join(', ')).send({ allowed })
    }
    return reply.code(404).send({ allowed })
  })
  const ok = async () => 'ok'
  app.get('/users/:id', ok)
  app.patch('/users/:id', ok)
  app.delete('/users/:id', ok)
  app.post('/users', ok)
  app.route({ method: ['PROPFIND', 'GET'], url: '/dav', handler: ok })
  await app.register(
    async (child) => {
      child.put('/items/:id', ok)
    },
    { prefix: '/v1' },
  )
  app.options('*', ok)
  return app
}

describe('routeMethods', () => {
  it('answers 405 with the methods the path has, in the usual order, HEAD with GET', async () => {
    await start()
    const res = await app.inject({ method: 'POST', url: '/users/7?full=1' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD, PATCH, DELETE, OPTIONS')
    const dav = await app.inject({ method: 'DELETE', url: '/dav' })
    expect(dav.headers.allow).toBe('GET, HEAD, OPTIONS, PROPFIND')
  })

  it('sees routes of scopes registered inside, with their prefix', async () => {
    await start()
    const res = await app.inject({ method: 'GET', url: '/v1/items/3' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('PUT, OPTIONS')
  })

  it('leaves a path that only a catch-all matches a 404', async () => {
    await start()
    const res = await app.inject({ method: 'GET', url: '/nothing/here' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ allowed: [] })
  })

  it('matches paths as the app router does', async () => {
    await start()
    expect((await app.inject({ method: 'POST', url: '/users/7/' })).statusCode).toBe(404)
    await app.close()
    await start({ routerOptions: { ignoreTrailingSlash: true, maxParamLength: 5 } })
    expect((await app.inject({ method: 'POST', url: '/users/7/' })).statusCode).toBe(405)
    expect((await app.inject({ method: 'POST', url: '/users/123456' })).statusCode).toBe(404)
  })
})
