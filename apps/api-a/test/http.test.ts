import { Writable } from 'node:stream'
import { type FrozenPostgres, startFrozenPostgres } from '@weft/tooling/frozen-postgres'
import { testDatabaseKinds } from '@weft/tooling/test-db'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { openDatabase } from '../src/db/client.js'
import { bearer, login, newUser, outcome, signUp, startApp, type TestApp, testSettings } from './support.js'

describe.each(testDatabaseKinds())('HTTP behaviour on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'http')
    // A test-only route: hidden from the document, so the contract check leaves it alone.
    t.app.get('/api/boom', { schema: { hide: true } }, async () => {
      throw new Error('duplicate key in relation "users" at /srv/app/secret.ts:42')
    })
  })
  afterAll(() => t?.close())

  it('answers unknown routes with 404 NOT_FOUND in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope?x=1' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'NOT_FOUND',
      message: 'route GET /api/nope not found',
      data: null,
    })
  })

  it('answers a path that is not valid percent-encoding with 400 BAD_REQUEST in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/%zz' })
    expect(outcome(res)).toEqual({ status: 400, code: 'BAD_REQUEST' })
    expect(res.json().data).toBeNull()
  })

  it.each([
    ['a __proto__ key', '{"__proto__":{"polluted":1},"email":"a@b.c","password":"x"}'],
    ['a constructor.prototype key', '{"constructor":{"prototype":{"polluted":1}},"email":"a@b.c","password":"x"}'],
  ])('refuses a body with %s (400) and leaves Object.prototype alone', async (_name, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each(['?%E0%A4%A=1', '?limit[]=1', '?__proto__[x]=1', '?sort[]=x', '?x=%ZZ', '?limit=-4'])(
    'lists products for the odd query %s (values it cannot read fall back to defaults)',
    async (query) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/products${query}` })
      expect(res.statusCode).toBe(200)
      expect(res.json().status).toBe('success')
    },
  )

  it('refuses a page that is not an integer, naming it, whatever else the query holds', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products?page=abc&limit=-4' })
    expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'page', rule: 'integer' })])
  })

  it('answers a malformed JSON body with 400 BAD_REQUEST', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    })
    expect(outcome(res)).toEqual({ status: 400, code: 'BAD_REQUEST' })
  })

  it('answers a JSON array body with 400 BAD_REQUEST', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: [1, 2] })
    expect(outcome(res)).toEqual({ status: 400, code: 'BAD_REQUEST' })
  })

  it('answers a non-JSON body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a',
    })
    expect(outcome(res)).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
  })

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newUser(), username: 'x'.repeat(20_000) },
    })
    expect(outcome(res)).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' })
  })

  it('hides a fault behind 500 INTERNAL: no stack, no internal text', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/boom' })
    expect(res.json()).toEqual({ status: 'error', code: 'INTERNAL', message: 'internal server error', data: null })
    expect(res.statusCode).toBe(500)
    expect(res.body).not.toMatch(/secret|relation|at \//)
  })

  it('sends security headers (helmet)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'content-security-policy': expect.stringContaining("default-src 'self'"),
    })
  })

  it('answers JSON with Content-Type application/json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products' })
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  })
})

describe.each(testDatabaseKinds())('rate limiting on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'rate', { authRateLimit: 3 })
  })
  afterAll(() => t?.close())

  it.each(['/api/auth/login', '/api/auth/register'])('limits %s per IP: the 4th request answers 429', async (url) => {
    // Login attempts also count against the account (the email): another address tries another email.
    const send = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url,
        remoteAddress,
        payload: { email: `a@${remoteAddress}.example.com`, password: 'whatever1' },
      })
    for (let i = 0; i < 3; i++) expect((await send('10.0.0.1')).statusCode).not.toBe(429)
    const limited = await send('10.0.0.1')
    expect(outcome(limited)).toEqual({ status: 429, code: 'RATE_LIMITED' })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited.json().retry_after).toBe(Number(limited.headers['retry-after']))
    // Another address has its own budget.
    expect((await send('10.0.0.2')).statusCode).not.toBe(429)
  })

  it('does not limit the other routes', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/api/products', remoteAddress: '10.0.0.3' })
      expect(res.statusCode).toBe(200)
    }
  })
})

describe('request logs', () => {
  it('never contain passwords, tokens or the Authorization header', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk))
        callback()
      },
    })
    const t = await startApp('pglite', 'logs', {}, { level: 'trace', stream })
    try {
      const account = await signUp(t.app)
      await t.app.inject({ method: 'GET', url: `/api/users/${account.id}`, headers: bearer(account.access) })
      await t.app.inject({ method: 'GET', url: '/api/users/1', headers: { authorization: 'Bearer not-a-token' } })
      t.app.log.info({
        req: { headers: { authorization: `Bearer ${account.access}` } },
        body: { password: account.password },
      })
      const log = lines.join('')
      expect(log).toContain('incoming request')
      for (const secret of [account.password, account.access, account.refresh, 'not-a-token', 'scrypt$']) {
        expect(log).not.toContain(secret)
      }
      expect(log).toContain('[redacted]')
    } finally {
      await t.close()
    }
  })
})

describe('a database server that accepts connections and never answers', () => {
  let frozen: FrozenPostgres
  beforeAll(async () => {
    frozen = await startFrozenPostgres()
  })
  afterAll(async () => {
    await frozen.close()
  })

  it('answers 503 UNAVAILABLE with Retry-After once HANDLER_TIMEOUT_MS has passed', async () => {
    const database = await openDatabase({ kind: 'postgres', url: frozen.url })
    const app = await buildApp({ database, settings: { ...testSettings, handlerTimeoutMs: 300 } })
    try {
      for (const url of ['/api/products', '/api/health']) {
        const res = await app.inject({ method: 'GET', url })
        expect(res.statusCode).toBe(503)
        expect(res.headers['retry-after']).toBe('5')
        expect(res.json()).toMatchObject({ status: 'error', code: 'UNAVAILABLE', data: null })
      }
    } finally {
      await app.close()
      await database.close().catch(() => {})
    }
  })
})

describe.each(testDatabaseKinds())('database outage on %s', (kind) => {
  it('answers 503 UNAVAILABLE with Retry-After while the database is closed', async () => {
    const t = await startApp(kind, 'outage')
    const account = await signUp(t.app)
    await t.database.close()
    try {
      for (const request of [
        { method: 'GET' as const, url: '/api/products' },
        { method: 'GET' as const, url: `/api/users/${account.id}`, headers: bearer(account.access) },
        {
          method: 'POST' as const,
          url: '/api/auth/login',
          payload: { email: account.email, password: account.password },
        },
      ]) {
        const res = await t.app.inject(request)
        expect(res.statusCode).toBe(503)
        expect(res.headers['retry-after']).toBe('5')
        expect(res.json()).toEqual({
          status: 'error',
          code: 'UNAVAILABLE',
          message: 'the database is unavailable; retry in 5 s',
          data: null,
          retry_after: 5,
        })
      }
    } finally {
      await t.close()
    }
  })
})

// Only a real server has connections to cut: the test's own when TEST_DATABASE_URL is unset.
describe('connections cut by the PostgreSQL server', () => {
  it('answers 503 while they are cut and recovers by itself', async () => {
    const t = await startApp('postgres', 'terminate')
    try {
      const account = await signUp(t.app)
      // Only this file's scratch database: never another test's.
      const scratchUrl = (t.database.settings as { url: string }).url
      const admin = await openDatabase({ kind: 'postgres', url: scratchUrl })
      const name = new URL(scratchUrl).pathname.slice(1)
      await admin.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`,
      )
      await admin.close()
      const statuses: number[] = []
      for (let i = 0; i < 20 && statuses.at(-1) !== 200; i++) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/users/${account.id}`,
          headers: bearer(account.access),
        })
        statuses.push(res.statusCode)
        if (res.statusCode !== 200) expect(outcome(res)).toEqual({ status: 503, code: 'UNAVAILABLE' })
      }
      expect(statuses.at(-1)).toBe(200)
    } finally {
      await t.close()
    }
  })
})

describe('unreachable PostgreSQL server', () => {
  it('answers 503 instead of hanging', async () => {
    const database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:9/none' })
    const app = await buildApp({ database, settings: testSettings })
    try {
      const res = await app.inject({ method: 'GET', url: '/api/products/1' })
      expect(outcome(res)).toEqual({ status: 503, code: 'UNAVAILABLE' })
      const health = await app.inject({ method: 'GET', url: '/api/health' })
      expect(outcome(health)).toEqual({ status: 503, code: 'UNAVAILABLE' })
    } finally {
      await app.close()
      await database.close()
    }
  })
})

describe('the login of an unknown email', () => {
  it('runs the password hash like a known one (no enumeration by timing)', async () => {
    const t = await startApp('pglite', 'timing')
    try {
      const account = await signUp(t.app)
      let hashed = 0
      const verify = t.app.passwords.verify
      t.app.passwords.verify = async (...args) => {
        hashed++
        return verify(...args)
      }
      await expect(login(t.app, 'nobody@example.com', account.password)).rejects.toThrow(/INVALID_CREDENTIALS/)
      expect(hashed).toBe(1)
    } finally {
      await t.close()
    }
  })
})
