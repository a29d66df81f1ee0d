import { Writable } from 'node:stream'
import { testDatabaseKinds } from '@weft/tooling/test-db'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { openDatabase } from '../src/db/client.js'
import { bearer, newUser, registeredUser, testSettings, useTestApi } from './support.js'

describe.each(testDatabaseKinds())('HTTP hygiene on %s', (kind) => {
  const api = useTestApi(kind, 'hygiene')

  it('sends security headers (helmet)', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(res.headers['strict-transport-security']).toContain('max-age=')
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    expect(res.headers['x-powered-by']).toBeUndefined()
  })

  it('answers an unknown route with the 404 envelope', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/api/nothing-here' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'NOT_FOUND',
      message: 'route GET /api/nothing-here not found',
      data: null,
    })
  })

  it('answers an unsupported method on a known path with 405 and Allow (method-not-allowed.test.ts)', async () => {
    const res = await api.app.inject({ method: 'PUT', url: '/api/user/1' })
    expect(res.statusCode).toBe(405)
    expect(res.json().code).toBe('METHOD_NOT_ALLOWED')
  })

  it.each([
    ['a malformed URL', '/api/user/%E0%A4%A', 'the URL is malformed: check its percent-encoding'],
    [
      'an overlong path parameter',
      `/api/user/${'1'.repeat(200)}`,
      'the URL is malformed: a path parameter is too long',
    ],
  ])('answers %s with the 400 envelope', async (_name, url, message) => {
    const res = await api.app.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ status: 'error', code: 'BAD_REQUEST', message, data: null })
  })

  it('ignores query strings it does not use, hostile ones included', async () => {
    const me = await registeredUser(api.app)
    const res = await api.app.inject({
      method: 'GET',
      url: `/api/user/${me.id}?__proto__[admin]=1&constructor[prototype][x]=1&a[b][c][d]=2`,
      headers: bearer(me.token),
    })
    expect(res.statusCode).toBe(200)
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
  })

  it('never shows a password hash, whatever the route', async () => {
    const me = await registeredUser(api.app)
    const responses = await Promise.all([
      api.app.inject({ method: 'GET', url: `/api/user/${me.id}`, headers: bearer(me.token) }),
      api.app.inject({
        method: 'PATCH',
        url: `/api/user/${me.id}`,
        headers: bearer(me.token),
        payload: { email: newUser().email },
      }),
      api.app.inject({ method: 'POST', url: '/api/user', payload: newUser() }),
    ])
    for (const res of responses) {
      expect(res.body).not.toMatch(/scrypt|password_hash|passwordHash|token_version/)
    }
  })
})

describe.each(testDatabaseKinds())('OpenAPI document on %s', (kind) => {
  const api = useTestApi(kind, 'openapi')

  it('is served at /docs/json and describes every endpoint', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/auth/login', '/api/health', '/api/user', '/api/user/{id}'])
    expect(Object.keys(doc.paths['/api/user/{id}']).sort()).toEqual(['delete', 'get', 'patch'])
    expect(doc.paths['/api/user/{id}'].get.security).toEqual([{ bearerAuth: [] }])
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.paths['/api/user'].post.requestBody.content['application/json'].schema.required).toEqual([
      'username',
      'password',
      'email',
    ])
  })
})

describe('request logs', () => {
  it('contain no password, token or Authorization header', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const database = await openDatabase({ kind: 'pglite' })
    await database.migrate()
    const app = await buildApp({ database, settings: testSettings(), logger: { level: 'trace', stream } })
    try {
      const me = await registeredUser(app)
      await app.inject({ method: 'GET', url: `/api/user/${me.id}`, headers: bearer(me.token) })
      await app.inject({
        method: 'GET',
        url: `/api/user/${me.id}`,
        headers: { authorization: 'Bearer forged.token.value' },
      })
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: me.username, password: 'wrong-password' },
      })

      const log = lines.join('')
      expect(lines.length).toBeGreaterThan(5)
      expect(log).toContain('request completed')
      expect(log).not.toContain(me.password)
      expect(log).not.toContain('wrong-password')
      expect(log).not.toContain(me.token)
      expect(log).not.toContain(me.token.split('.')[2])
      expect(log).not.toContain('forged.token.value')
      expect(log.toLowerCase()).not.toContain('bearer')
    } finally {
      await app.close()
      await database.close()
    }
  })
})
