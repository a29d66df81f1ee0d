import { Buffer, isUtf8 } from 'node:buffer'
import fc from 'fast-check'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'
import { utf8Text } from './utf8.js'

describe('utf8Text', () => {
  it.each([
    ['a lone continuation byte', [0x61, 0x80]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a sequence cut short', [0xe2, 0x82]],
    ['four bytes cut short before ASCII', [0xf0, 0x90, 0x80, 0x41]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['bytes that never occur', [0xfe, 0xff]],
  ])('refuses %s', (_name, bytes) => {
    expect(utf8Text(Buffer.from(bytes))).toBeUndefined()
  })

  it('keeps a real U+FFFD, a BOM and text outside the BMP', () => {
    const text = '\uFEFF{"a":"\uFFFD é 😀"}'
    expect(utf8Text(Buffer.from(text))).toBe(text)
  })

  it('refuses exactly the bytes that are not UTF-8', () => {
    const bytes = fc.uint8Array({ maxLength: 24 }).map((array) => Buffer.from(array))
    const utf8 = fc.string({ unit: 'binary', maxLength: 12 }).map((text) => Buffer.from(text))
    fc.assert(
      fc.property(fc.oneof(bytes, utf8), (buffer) => {
        const text = utf8Text(buffer)
        expect(text === undefined).toBe(!isUtf8(buffer))
        if (text !== undefined) expect(Buffer.from(text).equals(buffer)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('a JSON body holding U+FFFD', () => {
  const Note = Type.Object({ text: Type.String() })
  async function post(payload: Buffer) {
    const app = await makeApp((request) => bind(request).json(Note))
    const res = await app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    return { status: res.statusCode, body: res.json() }
  }

  it('binds the character when the bytes say it (EF BF BD)', async () => {
    expect(await post(Buffer.from('{"text":"a\uFFFDb"}'))).toEqual({ status: 200, body: { text: 'a\uFFFDb' } })
  })

  it('answers 400 when a decoder would have made it from bytes that are not UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('{"text":"a'), Buffer.from([0xff]), Buffer.from('b"}')])
    const res = await post(bytes)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('WEFT_INVALID_UTF8')
  })
})
