import fastifyCors from '@fastify/cors'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { appWith, orders } from './apps.js'

describe.each(orders)('@fastify/cors (%s)', (order) => {
  async function app() {
    const app = await appWith(order, fastifyCors, { origin: ['https://app.example', 'https://admin.example'] })
    app.post(
      '/items',
      handle((c) => c.status(201).json({ created: true })),
    )
    return app
  }

  it('answers the preflight of a handle() route', async () => {
    const res = await (await app()).inject({
      method: 'OPTIONS',
      url: '/items',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    })
    expect(res.statusCode).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example')
    expect(res.headers['access-control-allow-methods']).toContain('POST')
  })

  it('adds its headers to what c.json() sends, and keeps Vary', async () => {
    const res = await (await app()).inject({
      method: 'POST',
      url: '/items',
      headers: { origin: 'https://app.example', 'content-type': 'application/json' },
      payload: '{}',
    })
    expect([res.statusCode, res.json()]).toEqual([201, { created: true }])
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example')
    expect(res.headers.vary).toContain('Origin')
  })
})
