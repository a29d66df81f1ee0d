import { randomUUID } from 'node:crypto'
import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, claimsOf, forgeToken, outcome, signUp, startApp, type TestApp } from './support.js'

/** How each kind of bad credential is answered on a protected route. */
describe.each(testDatabaseKinds())('authentication matrix on %s', (kind) => {
  let t: TestApp
  let account: Account
  let claims: Record<string, unknown>
  const now = () => Math.floor(Date.now() / 1000)

  beforeAll(async () => {
    t = await startApp(kind, 'matrix')
    account = await signUp(t.app)
    claims = claimsOf(account.access)
  })
  afterAll(() => t?.close())

  const call = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/users/${account.id}`, headers })

  const rows: [string, () => Record<string, string> | Promise<Record<string, string>>, number, string][] = [
    ['no Authorization header', () => ({}), 401, 'UNAUTHENTICATED'],
    ['an empty Authorization header', () => ({ authorization: '' }), 401, 'UNAUTHENTICATED'],
    ['a malformed header (no token)', () => ({ authorization: 'Bearer' }), 401, 'INVALID_TOKEN'],
    ['a malformed header (extra parts)', () => ({ authorization: `Bearer ${account.access} x` }), 401, 'INVALID_TOKEN'],
    ['a wrong scheme', () => ({ authorization: `Basic ${account.access}` }), 401, 'INVALID_TOKEN'],
    ['a token that is not a JWT', () => bearer('not.a.jwt'), 401, 'INVALID_TOKEN'],
    [
      'a bad signature',
      () => bearer(forgeToken(claims, { secret: 'another-secret-of-at-least-32-bytes!!' })),
      401,
      'INVALID_TOKEN',
    ],
    ['alg: none', () => bearer(forgeToken(claims, { alg: 'none' })), 401, 'INVALID_TOKEN'],
    ['another algorithm (HS512, right key)', () => bearer(forgeToken(claims, { alg: 'HS512' })), 401, 'INVALID_TOKEN'],
    [
      'an expired token',
      () => bearer(forgeToken({ ...claims, iat: now() - 1000, exp: now() - 10 })),
      401,
      'INVALID_TOKEN',
    ],
    ['a token not valid yet (nbf)', () => bearer(forgeToken({ ...claims, nbf: now() + 600 })), 401, 'INVALID_TOKEN'],
    [
      'a token issued in the future (iat)',
      () => bearer(forgeToken({ ...claims, iat: now() + 600, exp: now() + 1500 })),
      401,
      'INVALID_TOKEN',
    ],
    ['a token without jti', () => bearer(forgeToken({ ...claims, jti: undefined })), 401, 'INVALID_TOKEN'],
    ['a token with a non-numeric sub', () => bearer(forgeToken({ ...claims, sub: '1 OR 1=1' })), 401, 'INVALID_TOKEN'],
    ['a token of an unknown session', () => bearer(forgeToken({ ...claims, sid: randomUUID() })), 401, 'INVALID_TOKEN'],
    ['an oversized token', () => bearer(`${account.access}${'A'.repeat(4000)}`), 401, 'INVALID_TOKEN'],
    [
      'a token revoked by logout',
      async () => {
        const other = await signUp(t.app)
        await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(other.access) })
        // Same user id as the route, so only the revocation can refuse it.
        return bearer(forgeToken({ ...claimsOf(other.access), sub: String(account.id) }))
      },
      401,
      'INVALID_TOKEN',
    ],
    ['a valid token', () => bearer(account.access), 200, 'OK'],
  ]

  it.each(rows)('%s → %i %s', async (_name, headers, status, code) => {
    const res = await call(await headers())
    expect(res.statusCode).toBe(status)
    if (status === 200) return
    expect(res.json()).toMatchObject({ status: 'error', code, data: null })
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="api"/)
  })

  it('refuses the token of a deleted user', async () => {
    const gone = await signUp(t.app)
    await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${gone.id}`,
      headers: bearer(gone.access),
      payload: { current_password: gone.password },
    })
    const res = await t.app.inject({ method: 'GET', url: `/api/users/${gone.id}`, headers: bearer(gone.access) })
    expect(outcome(res)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
  })

  it('answers 403 for another user’s id', async () => {
    const other = await signUp(t.app)
    const res = await call(bearer(other.access))
    expect(outcome(res)).toEqual({ status: 403, code: 'FORBIDDEN' })
  })
})
