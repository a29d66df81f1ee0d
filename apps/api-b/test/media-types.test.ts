import { beforeAll, describe, expect, it } from 'vitest'
import { bearer, registeredUser, useTestApi } from './support.js'

describe('JSON routes accept application/json only', () => {
  const api = useTestApi('pglite', 'media')
  let account: Awaited<ReturnType<typeof registeredUser>>
  beforeAll(async () => {
    account = await registeredUser(api.app)
  })

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
      ['POST', '/api/user'],

      ['PATCH', `/api/user/${account.id}`],
      ['DELETE', `/api/user/${account.id}`],
    ] as const
    for (const [method, url] of routes) {
      const res = await api.app.inject({
        method,
        url,
        headers: { ...bearer(account.token), 'content-type': type },
        payload,
      })
      expect({ url, status: res.statusCode, code: res.json().code }).toEqual({
        url,
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      })
    }
  })
})
