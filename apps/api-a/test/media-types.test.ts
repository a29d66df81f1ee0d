import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, outcome, signUp, startApp, type TestApp } from './support.js'

describe('JSON routes accept application/json only', () => {
  let t: TestApp
  let account: Account
  beforeAll(async () => {
    t = await startApp('pglite', 'media')
    account = await signUp(t.app)
  })
  afterAll(() => t?.close())

  const types = [
    ['a urlencoded form', 'application/x-www-form-urlencoded', 'email=a%40example.com&password=whatever1'],
    ['text/plain', 'text/plain', '{"email":"a@example.com","password":"whatever1"}'],
    [
      'multipart',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
    ],
    ['XML', 'application/xml', '<login/>'],
    ['a look-alike', 'application/jsonx', '{}'],
  ] as const

  it.each(types)('answers %s with 415 UNSUPPORTED_MEDIA_TYPE on every JSON route', async (_name, type, payload) => {
    const routes = [
      ['POST', '/api/auth/login'],
      ['POST', '/api/auth/register'],
      ['POST', '/api/auth/refresh-token'],
      ['PATCH', `/api/users/${account.id}`],
      ['DELETE', `/api/users/${account.id}`],
      ['POST', '/api/products'],
    ] as const
    for (const [method, url] of routes) {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...bearer(account.access), 'content-type': type },
        payload,
      })
      expect({ url, ...outcome(res) }).toEqual({ url, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
    }
  })
})
