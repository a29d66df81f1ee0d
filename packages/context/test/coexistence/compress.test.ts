import { brotliCompressSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib'
import fastifyCompress from '@fastify/compress'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { handle } from '../../src/index.js'
import { appWith, orders } from './apps.js'

const Person = Type.Object({ name: Type.String() })

const codings = [
  ['gzip', gzipSync],
  ['deflate', deflateSync],
  ['br', brotliCompressSync],
] as const

describe.each(orders)('@fastify/compress (%s)', (order) => {
  async function app() {
    const app = await appWith(order, fastifyCompress, { threshold: 0 })
    app.post(
      '/',
      handle(async (c) => c.json({ bound: await c.bind().body(Person), body: c.body().toString() })),
    )
    app.post(
      '/text',
      handle((c) => c.sendString(c.body().toString())),
    )
    app.get(
      '/json',
      handle((c) => c.json({ hello: 'world' })),
    )
    app.get(
      '/send',
      handle((c) => c.type('txt').send(Buffer.from('plain words'))),
    )
    return app
  }

  it.each([
    ['application/json', '{"name":"Ada"}'],
    ['application/x-www-form-urlencoded', 'name=Ada'],
  ])('decodes a coded %s body once: it binds, and c.body() is the decoded text', async (type, text) => {
    const server = await app()
    for (const [coding, pack] of codings) {
      const res = await server.inject({
        method: 'POST',
        url: '/',
        headers: { 'content-type': type, 'content-encoding': coding },
        payload: pack(Buffer.from(text)),
      })
      expect([coding, res.statusCode, res.json()]).toEqual([coding, 200, { bound: { name: 'Ada' }, body: text }])
    }
  })

  it('gives c.body() the decoded text of a body Fastify’s own parser reads', async () => {
    const res = await (await app()).inject({
      method: 'POST',
      url: '/text',
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
      payload: gzipSync(Buffer.from('plain words')),
    })
    expect([res.statusCode, res.body]).toEqual([200, 'plain words'])
  })

  it.each([
    ['/json', 'application/json; charset=utf-8', '{"hello":"world"}'],
    ['/send', 'text/plain; charset=utf-8', 'plain words'],
  ])('compresses what %s sends for a client that accepts gzip', async (url, type, text) => {
    const res = await (await app()).inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers['content-type']).toBe(type)
    expect(gunzipSync(res.rawPayload).toString()).toBe(text)
  })
})
