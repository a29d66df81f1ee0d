import { describe, expect, it } from 'vitest'
import { SettingsError, settingsFromEnv } from '../src/config/settings.js'
import { bearer, newUser, registeredUser, TEST_SECRET, useTestApi } from './support.js'

const app = 'https://app.example.com'
const preflight = (origin: string, method: string) => ({
  origin,
  'access-control-request-method': method,
  'access-control-request-headers': 'authorization, content-type',
})

describe('CORS_ORIGINS', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['*', ['*']],
    [`${app}/, http://localhost:5173`, [app, 'http://localhost:5173']],
    ['HTTPS://App.Example.com:443', [app]],
  ])('reads %j as %j', (raw, origins) => {
    expect(settingsFromEnv({ SECRET: TEST_SECRET, CORS_ORIGINS: raw }).corsOrigins).toEqual(origins)
  })

  it.each(['app.example.com', `${app}/path`, 'ftp://files.example.com', `*, ${app}`])(
    'refuses %j, naming the setting',
    (raw) => {
      expect(() => settingsFromEnv({ SECRET: TEST_SECRET, CORS_ORIGINS: raw })).toThrow(SettingsError)
      expect(() => settingsFromEnv({ SECRET: TEST_SECRET, CORS_ORIGINS: raw })).toThrow(/CORS_ORIGINS must be/)
    },
  )
})

describe('CORS off (the default)', () => {
  const api = useTestApi('pglite', 'cors_off')

  it('answers a preflight like any OPTIONS request: 405, no CORS headers', async () => {
    const res = await api.app.inject({ method: 'OPTIONS', url: '/api/auth/login', headers: preflight(app, 'POST') })
    expect(res.statusCode).toBe(405)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('sends no Access-Control-Allow-Origin on a cross-origin request', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/api/health', headers: { origin: app } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('CORS for listed origins', () => {
  const corsOrigins = settingsFromEnv({ SECRET: TEST_SECRET, CORS_ORIGINS: `${app}, http://localhost:5173` })
  const api = useTestApi('pglite', 'cors_on', { corsOrigins: corsOrigins.corsOrigins, loginRateLimitMax: 1 })

  it('answers the preflight of an authorised DELETE: 204, the origin, methods, headers and max age', async () => {
    const res = await api.app.inject({ method: 'OPTIONS', url: '/api/user/1', headers: preflight(app, 'DELETE') })
    expect(res.statusCode).toBe(204)
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': app,
      'access-control-allow-methods': 'GET, HEAD, POST, PATCH, DELETE',
      'access-control-allow-headers': 'Authorization, Content-Type',
      'access-control-max-age': '600',
    })
    expect(res.headers.vary).toContain('Origin')
    expect(res.headers['access-control-allow-credentials']).toBeUndefined()
  })

  it('answers preflights before the rate limit: they spend no registration', async () => {
    const from = { remoteAddress: '10.9.0.2' }
    for (let i = 0; i < 3; i++) {
      const res = await api.app.inject({
        method: 'OPTIONS',
        url: '/api/user',
        headers: preflight(app, 'POST'),
        ...from,
      })
      expect(res.statusCode).toBe(204)
    }
    const registered = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { origin: app },
      payload: newUser(),
      ...from,
    })
    expect(registered.statusCode).toBe(201)
  })

  it('lets the page read Location and the rate-limit headers of a real request', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { origin: 'http://localhost:5173' },
      payload: newUser(),
      remoteAddress: '10.9.0.1',
    })
    expect(res.statusCode).toBe(201)
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(String(res.headers['access-control-expose-headers']).split(', ')).toEqual(
      expect.arrayContaining(['Location', 'Retry-After', 'WWW-Authenticate', 'X-RateLimit-Remaining']),
    )
  })

  it('answers an authorised request from a listed origin', async () => {
    const me = await registeredUser(api.app)
    const res = await api.app.inject({
      method: 'GET',
      url: `/api/user/${me.id}`,
      headers: { origin: app, ...bearer(me.token) },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe(app)
  })

  it('gives an origin it does not list no Access-Control-Allow-Origin, preflight or not', async () => {
    const evil = 'https://evil.example'
    const answers = await Promise.all([
      api.app.inject({ method: 'OPTIONS', url: '/api/user/1', headers: preflight(evil, 'DELETE') }),
      api.app.inject({ method: 'GET', url: '/api/health', headers: { origin: evil } }),
    ])
    for (const res of answers) expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('lists OPTIONS in the Allow of a 405', async () => {
    const res = await api.app.inject({ method: 'PUT', url: '/api/health' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS')
  })
})

describe('CORS for any origin (CORS_ORIGINS=*)', () => {
  const api = useTestApi('pglite', 'cors_any', { corsOrigins: ['*'] })

  it('answers every origin with *', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://any.example' } })
    expect(res.headers['access-control-allow-origin']).toBe('*')
  })
})
