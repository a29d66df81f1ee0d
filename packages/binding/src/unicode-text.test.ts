import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'

const Account = Type.Object({
  name: Type.String({ json: 'name', xml: 'name', form: 'name' }),
  tags: Type.Optional(Type.Array(Type.String())),
})

async function post(contentType: string, payload: string | Buffer) {
  const app = await makeApp((request) => bind(request).body(Account))
  const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': contentType }, payload })
  return { status: res.statusCode, body: res.json() }
}

// The bytes of `café` as Latin-1 (0xE9 alone is not UTF-8), and two byte sequences that a UTF-8
// decoder would both turn into U+FFFD: without the check they bind to the same text.
const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9])
const invalid = [Buffer.from([0x61, 0xfe, 0xfe]), Buffer.from([0x61, 0xff, 0xff])]

describe('bodies that are not UTF-8 text', () => {
  it.each([
    ['application/json', (bytes: Buffer) => Buffer.concat([Buffer.from('{"name":"'), bytes, Buffer.from('"}')])],
    [
      'application/json; charset=iso-8859-1',
      (bytes: Buffer) => Buffer.concat([Buffer.from('{"name":"'), bytes, Buffer.from('"}')]),
    ],
    ['application/x-www-form-urlencoded', (bytes: Buffer) => Buffer.concat([Buffer.from('name='), bytes])],
    [
      'application/xml',
      (bytes: Buffer) => Buffer.concat([Buffer.from('<a><name>'), bytes, Buffer.from('</name></a>')]),
    ],
  ])('answer %s with a 400 that says so', async (contentType, wrap) => {
    for (const bytes of [latin1, ...invalid]) {
      const res = await post(contentType, wrap(bytes))
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 'WEFT_INVALID_UTF8', message: 'the request body is not valid UTF-8 text' })
    }
  })

  it('binds UTF-8 text as sent', async () => {
    const res = await post('application/json', Buffer.from('{"name":"café 😀"}'))
    expect(res).toEqual({ status: 200, body: { name: 'café 😀' } })
  })
})

describe('JSON strings with lone surrogates', () => {
  it.each([
    ['a field', '{"name":"a\\ud800b"}', 'name'],
    ['a low surrogate alone', '{"name":"\\udfff"}', 'name'],
    ['an item of a list', '{"name":"ok","tags":["x","\\ud83d"]}', 'tags[1]'],
  ])('are refused in %s, with the field named', async (_case, payload, field) => {
    const res = await post('application/json', payload)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('WEFT_BIND_ERROR')
    expect(res.body.message).toBe(
      `cannot bind body field "${field}": the text holds a lone surrogate (like \\ud800), which is not a character`,
    )
  })

  it('accept a pair of surrogate escapes, which is one character', async () => {
    const res = await post('application/json', '{"name":"\\ud83d\\ude00"}')
    expect(res).toEqual({ status: 200, body: { name: '😀' } })
  })
})
