import { testDatabaseKinds } from '@weft/tooling/test-db'
import { beforeAll, describe, expect, it } from 'vitest'
import { forgeToken, now, registeredUser, useTestApi } from './support.js'

type Me = Awaited<ReturnType<typeof registeredUser>>

/** Each row: what the client sends as `Authorization`, and the answer it must get. */
const rows: { name: string; header: (me: Me) => string | undefined; code: string; message?: string }[] = [
  { name: 'no header', header: () => undefined, code: 'UNAUTHENTICATED' },
  { name: 'an empty header', header: () => '', code: 'UNAUTHENTICATED' },
  { name: 'Bearer without a token', header: () => 'Bearer ', code: 'INVALID_TOKEN' },
  { name: 'a malformed token', header: () => 'Bearer not-a-jwt', code: 'INVALID_TOKEN' },
  { name: 'the token without a scheme', header: (me) => me.token, code: 'INVALID_TOKEN' },
  { name: 'the Basic scheme', header: () => 'Basic dXNlcjpwYXNzd29yZA==', code: 'INVALID_TOKEN' },
  {
    name: 'a bad signature',
    header: (me) =>
      `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'weft-api-b', iat: now(), exp: now() + 60 }, { secret: 'another-secret-of-at-least-32-bytes!!' })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'a payload swapped under a valid signature',
    header: (me) => {
      const [head, , signature] = me.token.split('.')
      const payload = Buffer.from(JSON.stringify({ sub: String(me.id + 1), ver: 0 })).toString('base64url')
      return `Bearer ${head}.${payload}.${signature}`
    },
    code: 'INVALID_TOKEN',
  },
  {
    name: 'alg: none',
    header: (me) =>
      `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'weft-api-b', iat: now(), exp: now() + 60 }, { alg: 'none' })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'another algorithm (HS512 with the right secret)',
    header: (me) =>
      `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'weft-api-b', iat: now(), exp: now() + 60 }, { alg: 'HS512', hmac: 'sha512' })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'an expired token',
    header: (me) =>
      `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'weft-api-b', iat: now() - 7200, exp: now() - 3600 })}`,
    code: 'INVALID_TOKEN',
    message: 'invalid token: token has expired',
  },
  {
    name: 'a not-yet-valid token',
    header: (me) =>
      `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'weft-api-b', iat: now(), nbf: now() + 600, exp: now() + 3600 })}`,
    code: 'INVALID_TOKEN',
    message: 'invalid token: token is not valid yet',
  },
  {
    name: 'another issuer',
    header: (me) =>
      `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'someone-else', iat: now(), exp: now() + 60 })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'a token without an expiry',
    header: (me) => `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'weft-api-b', iat: now() })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'a token without a token version',
    header: (me) => `Bearer ${forgeToken({ sub: String(me.id), iss: 'weft-api-b', iat: now(), exp: now() + 60 })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'a SQL-looking subject',
    header: () => `Bearer ${forgeToken({ sub: '1 OR 1=1', ver: 0, iss: 'weft-api-b', iat: now(), exp: now() + 60 })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'a stale token version',
    header: (me) =>
      `Bearer ${forgeToken({ sub: String(me.id), ver: 7, iss: 'weft-api-b', iat: now(), exp: now() + 60 })}`,
    code: 'INVALID_TOKEN',
    message: 'invalid token: token has been revoked',
  },
  {
    name: 'a token for a user that does not exist',
    header: () => `Bearer ${forgeToken({ sub: '2000000000', ver: 0, iss: 'weft-api-b', iat: now(), exp: now() + 60 })}`,
    code: 'INVALID_TOKEN',
    message: 'invalid token: token has been revoked',
  },
  {
    name: 'a token without an issuer (right secret)',
    header: (me) => `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iat: now(), exp: now() + 60 })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'a numeric subject (right secret)',
    header: (me) => `Bearer ${forgeToken({ sub: me.id, ver: 0, iss: 'weft-api-b', iat: now(), exp: now() + 60 })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'a token issued in the future (right secret)',
    header: (me) =>
      `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'weft-api-b', iat: now() + 3600, exp: now() + 7200 })}`,
    code: 'INVALID_TOKEN',
  },
  {
    name: 'a token without iat (right secret)',
    header: (me) => `Bearer ${forgeToken({ sub: String(me.id), ver: 0, iss: 'weft-api-b', exp: now() + 60 })}`,
    code: 'INVALID_TOKEN',
  },
  { name: 'an oversized token', header: (me) => `Bearer ${me.token}${'A'.repeat(8000)}`, code: 'INVALID_TOKEN' },
]

describe.each(testDatabaseKinds())('authentication of /api/user/:id on %s', (kind) => {
  const api = useTestApi(kind, 'auth_matrix')
  let me: Me
  beforeAll(async () => {
    me = await registeredUser(api.app)
  })

  it('accepts the token login issued', async () => {
    const res = await api.app.inject({
      method: 'GET',
      url: `/api/user/${me.id}`,
      headers: { authorization: `Bearer ${me.token}` },
    })
    expect(res.statusCode).toBe(200)
  })

  it('accepts the scheme in any case', async () => {
    const res = await api.app.inject({
      method: 'GET',
      url: `/api/user/${me.id}`,
      headers: { authorization: `bearer ${me.token}` },
    })
    expect(res.statusCode).toBe(200)
  })

  describe.each(['GET', 'PATCH', 'DELETE'] as const)('%s', (method) => {
    it.each(rows)('answers 401 for $name', async (row) => {
      const header = row.header(me)
      const res = await api.app.inject({
        method,
        url: `/api/user/${me.id}`,
        headers: header === undefined ? {} : { authorization: header },
        ...(method === 'PATCH' ? { payload: { username: 'hijacked' } } : {}),
      })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject({ status: 'error', code: row.code, data: null })
      if (row.message) expect(res.json().message).toBe(row.message)
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/)
    })
  })

  it('leaves the account untouched after all those attempts', async () => {
    const res = await api.app.inject({
      method: 'GET',
      url: `/api/user/${me.id}`,
      headers: { authorization: `Bearer ${me.token}` },
    })
    expect(res.json().data).toEqual(me.user)
  })
})
