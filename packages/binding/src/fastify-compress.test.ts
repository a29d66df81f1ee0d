import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import fastifyCompress from '@fastify/compress'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { bind, weftBinding } from './index.js'
import { xmlBodies } from './xml.js'

const Person = Type.Object({ name: Type.String(), tags: Type.Array(Type.String()) })

/** weftBinding and @fastify/compress in the given order, and a route that binds the body. */
async function appWith(order: 'compress first' | 'binding first') {
  const app = Fastify()
  if (order === 'compress first') await app.register(fastifyCompress)
  await app.register(weftBinding)
  await app.register(xmlBodies)
  if (order === 'binding first') await app.register(fastifyCompress)
  app.post('/', async (request) => bind(request).body(Person))
  app.post('/raw', { config: {}, decompress: false } as object, async (request) => bind(request).body(Person))
  return app
}

const codings = [
  ['gzip', gzipSync],
  ['deflate', deflateSync],
  ['br', brotliCompressSync],
] as const

const bodies = [
  ['application/json', '{"name":"Ada","tags":["x"]}'],
  ['application/x-www-form-urlencoded', 'name=Ada&tags=x'],
  ['application/xml', '<p><name>Ada</name><tags>x</tags></p>'],
] as const

describe.each(['compress first', 'binding first'] as const)('with @fastify/compress (%s)', (order) => {
  it.each(bodies)('a coded %s body is decoded once, by @fastify/compress, and binds', async (type, text) => {
    const app = await appWith(order)
    for (const [coding, pack] of codings) {
      const res = await app.inject({
        method: 'POST',
        url: '/',
        headers: { 'content-type': type, 'content-encoding': coding },
        payload: pack(Buffer.from(text)),
      })
      expect([coding, res.statusCode, res.json()]).toEqual([coding, 200, { name: 'Ada', tags: ['x'] }])
    }
  })

  it('corrupt data is @fastify/compress’s 400', async () => {
    const app = await appWith(order)
    const res = await app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: 'not gzip at all',
    })
    expect([res.statusCode, res.json().code]).toEqual([400, 'FST_CP_ERR_INVALID_CONTENT'])
  })

  it('a route with `decompress: false` still answers a coded body 415, saying to send it uncompressed', async () => {
    const app = await appWith(order)
    const res = await app.inject({
      method: 'POST',
      url: '/raw',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync('{"name":"Ada","tags":[]}'),
    })
    expect([res.statusCode, res.json().code]).toEqual([415, 'WEFT_UNSUPPORTED_ENCODING'])
  })
})
