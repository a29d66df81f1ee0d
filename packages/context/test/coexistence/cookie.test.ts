import fastifyCookie from '@fastify/cookie'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { appWith, orders } from './apps.js'

describe.each(orders)('@fastify/cookie (%s)', (order) => {
  async function app() {
    const app = await appWith(order, fastifyCookie, { secret: 'a secret of thirty-two characters!' })
    app.get(
      '/',
      handle((c) => {
        // both writers in one response: the plugin's and Weft's
        c.response().setCookie('plugin', 'p', { path: '/' })
        return c
          .cookie({ name: 'weft', value: 'w' })
          .json({ weft: c.cookies('sid'), plugin: c.request().cookies.sid ?? null })
      }),
    )
    app.get('/signed', (request, reply) => {
      reply.setCookie('s', 'value', { signed: true })
      return { unsigned: request.unsignCookie(request.cookies.s ?? '').value }
    })
    return app
  }

  it('reads the same cookies as Weft, and both Set-Cookie headers are sent', async () => {
    const res = await (await app()).inject({ url: '/', headers: { cookie: 'sid=abc' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ weft: 'abc', plugin: 'abc' })
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? [])
    expect(cookies.map((line) => line.split(';')[0])).toEqual(expect.arrayContaining(['plugin=p', 'weft=w']))
  })

  it('signs and unsigns its own cookies', async () => {
    const server = await app()
    const first = await server.inject({ url: '/signed' })
    const signed = String(first.headers['set-cookie']).split(';')[0] as string
    const res = await server.inject({ url: '/signed', headers: { cookie: signed } })
    expect([res.statusCode, res.json()]).toEqual([200, { unsigned: 'value' }])
  })
})
