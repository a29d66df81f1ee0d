import fastifyRateLimit from '@fastify/rate-limit'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { appWith, orders } from './apps.js'

describe.each(orders)('@fastify/rate-limit (%s)', (order) => {
  it('counts handle() routes, sends its headers, and answers 429 past the limit', async () => {
    const app = await appWith(order, fastifyRateLimit, { max: 2, timeWindow: 60_000 })
    app.get(
      '/',
      handle((c) => c.json({ ok: true })),
    )
    const first = await app.inject('/')
    expect([first.statusCode, first.json()]).toEqual([200, { ok: true }])
    expect(first.headers['x-ratelimit-limit']).toBe('2')
    expect(first.headers['x-ratelimit-remaining']).toBe('1')
    await app.inject('/')
    const third = await app.inject('/')
    expect(third.statusCode).toBe(429)
    expect(third.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(third.headers['retry-after']).toBeDefined()
  })
})
