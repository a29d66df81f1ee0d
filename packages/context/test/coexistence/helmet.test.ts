import fastifyHelmet from '@fastify/helmet'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { appWith, orders } from './apps.js'

describe.each(orders)('@fastify/helmet (%s)', (order) => {
  it.each([
    ['c.json()', '/json'],
    ['c.sendString()', '/text'],
    ['a thrown error', '/error'],
  ])('adds its headers to what %s sends', async (_name, url) => {
    const app = await appWith(order, fastifyHelmet)
    app.get(
      '/json',
      handle((c) => c.json({ ok: true })),
    )
    app.get(
      '/text',
      handle((c) => c.sendString('ok')),
    )
    app.get(
      '/error',
      handle(() => {
        throw Object.assign(new Error('nope'), { statusCode: 400 })
      }),
    )
    const res = await app.inject({ url })
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(res.statusCode).toBe(url === '/error' ? 400 : 200)
  })
})
