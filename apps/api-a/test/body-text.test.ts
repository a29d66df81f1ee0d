import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newUser, startApp, type TestApp } from './support.js'

// Bodies that are not text as sent: before, invalid bytes and lone surrogate escapes were stored as U+FFFD,
// so two different passwords could register and log in as the same one.
describe('request bodies as text', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp('pglite', 'body_text')
  })
  afterAll(() => t?.close())

  const register = (payload: Buffer | string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    })

  it('refuses a body whose bytes are not UTF-8, whatever its charset says', async () => {
    const user = newUser('latin')
    const json = JSON.stringify({ ...user, password: 'abc\u00fe\u00feabcdef' })
    for (const [payload, headers] of [
      [Buffer.from(json, 'latin1'), {}],
      [Buffer.from(json, 'latin1'), { 'content-type': 'application/json; charset=iso-8859-1' }],
    ] as const) {
      const res = await register(payload, headers)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'the request body is not valid UTF-8 text' })
    }
  })

  it('refuses a lone surrogate escape in a field, naming the field', async () => {
    const user = newUser('surrogate')
    const res = await register(JSON.stringify(user).replace('"password":"', '"password":"\\ud800'))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'password' }] })
  })

  it('answers a coding it cannot decode with 415 that names it', async () => {
    const res = await register(JSON.stringify(newUser('zstd')), { 'content-encoding': 'zstd' })
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: "Content-Encoding 'zstd' is not supported; send the body as JSON, uncompressed or gzip, deflate or br",
    })
  })

  it('reads a gzipped JSON body as the JSON it holds', async () => {
    const user = newUser('gzip')
    const res = await register(gzipSync(Buffer.from(JSON.stringify(user))), { 'content-encoding': 'gzip' })
    expect(res.statusCode).toBe(201)
    expect(res.json().data.email).toBe(user.email)
  })
})
