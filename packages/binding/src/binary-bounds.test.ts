import { Buffer } from 'node:buffer'
import { Encoder } from 'cbor-x'
import { Packr } from 'msgpackr'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { expectLinearWork } from '../test/work.js'
import { cborBodies } from './cbor.js'
import { checkCbor } from './cbor-check.js'
import { bind } from './index.js'
import { msgpackBodies } from './msgpack.js'

const Lists = Type.Object({ lists: Type.Array(Type.Array(Type.String())), at: Type.Unknown() })
const Anything = Type.Object({}, { additionalProperties: true })
const plainCbor = new Encoder({ useRecords: false })
const moreTypes = new Packr({ useRecords: false, moreTypes: true })

async function binaryApp() {
  return makeApp(
    (request) => bind(request).body(Anything),
    {},
    async (app) => {
      await app.register(cborBodies)
      await app.register(msgpackBodies)
    },
  )
}

const cbor = (payload: Buffer) => ({
  method: 'POST' as const,
  url: '/',
  headers: { 'content-type': 'application/cbor' },
  payload,
})
const msgpack = (payload: Buffer) => ({
  method: 'POST' as const,
  url: '/',
  headers: { 'content-type': 'application/vnd.msgpack' },
  payload,
})

/** `{ n: <bignum of `bytes` bytes> }` in CBOR (tag 2, a byte string of 0xff). */
function bignumBody(bytes: number): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(bytes)
  return Buffer.concat([Buffer.from([0xa1, 0x61, 0x6e, 0xc2, 0x5a]), length, Buffer.alloc(bytes, 0xff)])
}

/** One list of `count` strings, referenced `count` times (the shape a shared-reference encoder writes). */
function sharedLists(count: number): { lists: string[][] } {
  const list = Array.from({ length: count }, (_, i) => `s${i}`)
  return { lists: Array.from({ length: count }, () => list) }
}

describe('CBOR bodies: bounded work', () => {
  it('refuses a bignum longer than 128 bytes with a 400 that says so, in time linear in the body', async () => {
    const app = await binaryApp()
    const res = await expectLinearWork(app, (size) => cbor(bignumBody(size)), 16 * 1024)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message:
        'cannot bind body: the CBOR body has a bignum of 131072 bytes; at most 128 bytes (a number up to 2^1024) are accepted',
    })
  })

  it('accepts bignums up to 128 bytes', () => {
    expect(() => checkCbor(bignumBody(128))).not.toThrow()
    expect(() => checkCbor(bignumBody(129))).toThrow('bignum of 129 bytes')
  })

  it('refuses shared references (tags 28/29) in time linear in the body, before they expand', async () => {
    const app = await binaryApp()
    const encoder = new Encoder({ structuredClone: true, useRecords: false })
    const res = await expectLinearWork(app, (size) => cbor(encoder.encode(sharedLists(size))), 200)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: expect.stringContaining('tag 28 (a shared value), which is not accepted'),
    })
  })

  it.each([
    [
      'packed values (tag 51)',
      new Encoder({ pack: true, useRecords: false }).encode({ a: 'repeat me', b: 'repeat me', c: 'repeat me' }),
      'tag 51',
    ],
    ['records', new Encoder({ useRecords: true }).encode([{ a: 1 }, { a: 2 }]), 'a record'],
    ['a set (tag 258)', plainCbor.encode(new Set([1, 2])), 'tag 258 (a set)'],
    ['a typed array', plainCbor.encode(new Float64Array([1, 2])), 'a typed array'],
    ['a serialized object (tag 27)', plainCbor.encode(/a+/), 'tag 27'],
    ['an unknown tag', Buffer.from([0xd9, 0x12, 0x34, 0x01]), 'tag 4660'],
    ['a simple value', Buffer.from([0xa1, 0x61, 0x61, 0xf8, 0x20]), 'a simple value that is not true, false or null'],
    // a break where a value belongs would hide the tag after it from a walk that stopped there
    ['a misplaced break', Buffer.from([0x82, 0xff, 0xd8, 0x1c, 0x80]), 'a break outside'],
    ['a cut-short body', Buffer.from([0x83, 0x01]), 'ends before its value does'],
  ])('refuses %s with a 400 naming it', async (_name, payload, words) => {
    const app = await binaryApp()
    const res = await app.inject(cbor(payload))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining(words) })
  })

  it('refuses nesting deeper than 256 levels with a 400', async () => {
    const app = await binaryApp()
    const res = await app.inject(cbor(Buffer.concat([Buffer.alloc(100_000, 0x81), Buffer.from([0x01])])))
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('cannot bind body: the CBOR body is nested more than 256 levels deep')
  })

  it('still binds plain values, dates and small bignums', async () => {
    const app = await makeApp(
      (request) => bind(request).body(Lists),
      {},
      (a) => a.register(cborBodies),
    )
    const res = await app.inject(cbor(plainCbor.encode({ lists: [['a', 'b'], ['c']], at: new Date(0) })))
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ lists: [['a', 'b'], ['c']], at: '1970-01-01T00:00:00.000Z' })
  })
})

describe('MessagePack bodies: bounded work', () => {
  it('refuses shared references in time linear in the body, before they expand', async () => {
    const app = await binaryApp()
    const packr = new Packr({ structuredClone: true, useRecords: false })
    const res = await expectLinearWork(app, (size) => msgpack(packr.pack(sharedLists(size))), 200)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: expect.stringContaining('extension type 105 (a shared value), which is not accepted'),
    })
  })

  it.each([
    ['records', new Packr({ useRecords: true }).pack([{ a: 1 }, { a: 2 }, { a: 3 }]), 'a record definition'],
    [
      'bundled strings',
      new Packr({ bundleStrings: true, useRecords: false }).pack({ a: 'x'.repeat(40), b: 'y'.repeat(40) }),
      'bundled strings',
    ],
    ['a set', moreTypes.pack(new Set([1, 2])), 'a set'],
    ['a typed array', moreTypes.pack(new Float64Array([1, 2])), 'a typed array'],
    ['an error object', moreTypes.pack(new Error('x')), 'an error object'],
    ['an unknown extension', Buffer.from([0xd4, 0x05, 0x00]), 'extension type 5,'],
    // 0xc1 where a value belongs would hide the extension after it from a walk that stopped there
    ['the unused byte 0xc1', Buffer.from([0x92, 0xc1, 0xd4, 0x72, 0x00]), 'the byte 0xc1'],
    ['a cut-short body', Buffer.from([0x93, 0x01]), 'ends before its value does'],
  ])('refuses %s with a 400 naming it', async (_name, payload, words) => {
    const app = await binaryApp()
    const res = await app.inject(msgpack(payload))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining(words) })
  })

  it('refuses nesting deeper than 256 levels with a 400', async () => {
    const app = await binaryApp()
    const res = await app.inject(msgpack(Buffer.concat([Buffer.alloc(100_000, 0x91), Buffer.from([0x01])])))
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('cannot bind body: the MessagePack body is nested more than 256 levels deep')
  })

  it('still binds plain values and timestamps', async () => {
    const app = await makeApp(
      (request) => bind(request).body(Lists),
      {},
      (a) => a.register(msgpackBodies),
    )
    const res = await app.inject(
      msgpack(new Packr({ useRecords: false }).pack({ lists: [['a', 'b'], ['c']], at: new Date(0) })),
    )
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ lists: [['a', 'b'], ['c']], at: '1970-01-01T00:00:00.000Z' })
  })
})
