import { encode } from 'cbor-x'
import Fastify from 'fastify'
import { pack } from 'msgpackr'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { cborBodies } from './cbor.js'
import { bind, weftBinding } from './index.js'
import { msgpackBodies } from './msgpack.js'

const Point = Type.Object({ x: Type.Integer({ msgpack: 'X', cbor: 'X' }), label: Type.String() })

describe('MessagePack bodies', () => {
  const payload = pack({ X: 3, label: 'p' })
  const headers = { 'content-type': 'application/vnd.msgpack' }

  it('decodes with msgPack() and body() once msgpackBodies is registered', async () => {
    for (const op of ['msgPack', 'body'] as const) {
      const app = await makeApp(
        (request) => bind(request)[op](Point),
        {},
        (a) => a.register(msgpackBodies),
      )
      expect((await app.inject({ method: 'POST', url: '/', headers, payload })).json()).toEqual({ x: 3, label: 'p' })
    }
  })

  it('reports bytes that are not MessagePack as a BindError', async () => {
    const app = await makeApp(
      (request) => bind(request).msgPack(Point),
      {},
      (a) => a.register(msgpackBodies),
    )
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: Buffer.from([0x92, 0x01]) })
    expect(res.json().code).toBe('WEFT_BIND_ERROR')
  })

  it('says how to enable it when msgpackBodies is missing', async () => {
    const app = await makeApp((request) => bind(request).msgPack(Point))
    const res = await app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    })
    expect(res.json()).toMatchObject({
      code: 'WEFT_MSGPACK_DISABLED',
      message: expect.stringContaining("import { msgpackBodies } from '@weft/binding/msgpack'"),
    })
  })
})

describe('CBOR bodies', () => {
  const payload = encode({ X: 4, label: 'c' })
  const headers = { 'content-type': 'application/cbor' }

  it('decodes with cbor() and body() once cborBodies is registered', async () => {
    for (const op of ['cbor', 'body'] as const) {
      const app = await makeApp(
        (request) => bind(request)[op](Point),
        {},
        (a) => a.register(cborBodies),
      )
      expect((await app.inject({ method: 'POST', url: '/', headers, payload })).json()).toEqual({ x: 4, label: 'c' })
    }
  })

  it('works whichever of weftBinding and cborBodies is registered first', async () => {
    const app = Fastify()
    await app.register(cborBodies)
    await app.register(weftBinding)
    app.post('/', (request) => bind(request).cbor(Point))
    expect((await app.inject({ method: 'POST', url: '/', headers, payload })).json()).toEqual({ x: 4, label: 'c' })
  })

  it('says how to enable it when cborBodies is missing', async () => {
    const app = await makeApp((request) => bind(request).cbor(Point))
    const res = await app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    })
    expect(res.json().message).toContain("import { cborBodies } from '@weft/binding/cbor'")
  })
})
