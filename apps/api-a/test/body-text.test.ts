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

  it('answers a coded (gzipped) body with 415, asking for it uncompressed', async () => {
    for (const coding of ['gzip', 'zstd']) {
      const res = await register(gzipSync(Buffer.from(JSON.stringify(newUser('coded')))), {
        'content-encoding': coding,
      })
      expect(res.statusCode).toBe(415)
      expect(res.headers['accept-encoding']).toBe('identity')
      expect(res.json()).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: `request bodies with Content-Encoding '${coding}' are not accepted; send the body uncompressed`,
      })
    }
  })
})
