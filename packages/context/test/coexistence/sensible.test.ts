import fastifySensible from '@fastify/sensible'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { appWith, orders } from './apps.js'

describe.each(orders)('@fastify/sensible (%s)', (order) => {
  async function app() {
    const app = await appWith(order, fastifySensible)
    app.get(
      '/thrown',
      handle(() => {
        throw app.httpErrors.badRequest('name is required')
      }),
    )
    app.get(
      '/cached',
      handle((c) => {
        c.response().cacheControl('max-age', 60)
        return c.json({ ok: true })
      }),
    )
    app.get('/missing', (_request, reply) => reply.notFound())
    app.post(
      '/is-json',
      handle((c) => c.json({ is: c.request().is(['json']) })),
    )
    return app
  }

  it('its errors thrown in a handle() chain keep their status and message', async () => {
    const res = await (await app()).inject('/thrown')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'name is required' })
  })

  it('its reply helpers work beside Weft’s writers', async () => {
    const res = await (await app()).inject('/cached')
    expect([res.statusCode, res.headers['cache-control'], res.json()]).toEqual([200, 'max-age=60', { ok: true }])
    const missing = await (await app()).inject('/missing')
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'Not Found'])
  })

  it('its request helpers work beside Weft’s', async () => {
    const res = await (await app()).inject({
      method: 'POST',
      url: '/is-json',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    })
    expect([res.statusCode, res.json()]).toEqual([200, { is: 'json' }])
  })
})
