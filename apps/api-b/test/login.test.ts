import { testDatabaseKinds } from '@weft/tooling/test-db'
import { describe, expect, it } from 'vitest'
import { errorOf, newUser, useTestApi } from './support.js'

function decodePart(token: string, index: number) {
  return JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8'))
}

describe.each(testDatabaseKinds())('POST /api/auth/login on %s', (kind) => {
  const api = useTestApi(kind, 'login')
  const login = (payload: unknown) =>
    api.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object })
  const register = async () => {
    const body = newUser()
    const res = await api.app.inject({ method: 'POST', url: '/api/user', payload: body })
    return { ...body, id: res.json().data.id as number }
  }

  it('returns a bearer token valid for one hour', async () => {
    const user = await register()
    const res = await login({ username: user.username, password: user.password })
    expect(res.statusCode).toBe(200)
    const json = res.json()
    expect(json).toMatchObject({
      status: 'success',
      message: 'logged in',
      data: { token_type: 'Bearer', expires_in: 3600 },
    })
    expect(Object.keys(json.data).sort()).toEqual(['access_token', 'expires_in', 'token_type'])
    expect(decodePart(json.data.access_token, 0)).toEqual({ alg: 'HS256', typ: 'JWT' })
  })

  it('puts the user id in sub and a one-hour lifetime in the token', async () => {
    const user = await register()
    const token = (await login({ username: user.username, password: user.password })).json().data.access_token
    const claims = decodePart(token, 1)
    expect(claims).toMatchObject({ sub: String(user.id), ver: 0, iss: 'weft-api-b' })
    expect(claims.exp - claims.iat).toBe(3600)
  })

  it('matches the username regardless of case', async () => {
    const user = await register()
    const res = await login({ username: user.username.toUpperCase(), password: user.password })
    expect(res.statusCode).toBe(200)
  })

  it('tolerates a trailing slash', async () => {
    const user = await register()
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { username: user.username, password: user.password },
    })
    expect(res.statusCode).toBe(200)
  })

  it('answers 401 INVALID_CREDENTIALS for a wrong password', async () => {
    const user = await register()
    const res = await login({ username: user.username, password: 'wrong password!' })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'INVALID_CREDENTIALS',
      message: 'username or password is incorrect',
      data: null,
    })
  })

  it('answers an unknown username exactly as a wrong password', async () => {
    const user = await register()
    const wrongPassword = await login({ username: user.username, password: 'wrong password!' })
    const unknownUser = await login({ username: `${user.username}_nobody`, password: 'wrong password!' })
    const comparable = (res: typeof wrongPassword) => {
      // Only the clock and the per-address attempt counter may differ.
      const { date: _d, 'x-ratelimit-remaining': _r, 'x-ratelimit-reset': _t, ...headers } = res.headers
      return { status: res.statusCode, headers, body: res.body }
    }
    expect(comparable(unknownUser)).toEqual(comparable(wrongPassword))
  })

  it.each([
    ['no username', { password: 'whatever password' }, 'username'],
    ['no password', { username: 'someone' }, 'password'],
    ['an empty password', { username: 'someone', password: '' }, 'password'],
    ['an extra field', { username: 'someone', password: 'whatever', admin: true }, 'admin'],
    ['a NUL byte in the username', { username: 'some\u0000one', password: 'whatever' }, 'username'],
  ])('answers 400 VALIDATION_FAILED for %s', async (_name, payload, field) => {
    const res = await login(payload)
    expect(errorOf(res)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
    expect(res.json().errors).toContainEqual(expect.objectContaining({ field }))
  })
})

describe.each(testDatabaseKinds())('login rate limit on %s', (kind) => {
  const api = useTestApi(kind, 'login_rate', { loginRateLimitMax: 3 })

  it('answers 429 RATE_LIMITED with Retry-After once an address used up its attempts', async () => {
    const attempt = () =>
      api.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'nobody', password: 'x' } })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await attempt()).statusCode)
    expect(statuses).toEqual([401, 401, 401, 429])
    const limited = await attempt()
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.json()).toMatchObject({ status: 'error', code: 'RATE_LIMITED', data: null })
    expect(limited.json().retry_after).toBe(Number(limited.headers['retry-after']))
  })

  it('limits registrations from one address the same way', async () => {
    const statuses = []
    for (let i = 0; i < 4; i++) {
      const res = await api.app.inject({
        method: 'POST',
        url: '/api/user',
        remoteAddress: '10.9.9.9',
        payload: newUser(),
      })
      statuses.push(res.statusCode)
    }
    expect(statuses).toEqual([201, 201, 201, 429])
  })

  it('counts each client address on its own', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.1.2.3',
      // Another name too: attempts also count against the account.
      payload: { username: 'somebody-else', password: 'x' },
    })
    expect(res.statusCode).toBe(401)
  })
})
