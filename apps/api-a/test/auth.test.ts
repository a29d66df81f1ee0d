import { testDatabaseKinds } from '@weft/tooling/test-db'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshTokens } from '../src/db/schema.js'
import { bearer, claimsOf, login, newUser, outcome, signUp, startApp, type TestApp } from './support.js'

describe.each(testDatabaseKinds())('auth on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'auth')
  })
  afterAll(() => t?.close())

  const register = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/auth/register', payload: payload as object })
  const refresh = (access: string, refreshToken: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      headers: bearer(access),
      payload: { refresh_token: refreshToken },
    })
  const me = (id: number, access: string) =>
    t.app.inject({ method: 'GET', url: `/api/users/${id}`, headers: bearer(access) })

  describe('POST /api/auth/register', () => {
    it('creates the user: 201, Location, the public fields only', async () => {
      const user = newUser()
      const res = await register(user)
      expect(res.statusCode).toBe(201)
      const body = res.json()
      expect(res.headers.location).toBe(`/api/users/${body.data.id}`)
      expect(body).toEqual({
        status: 'success',
        message: 'user registered',
        data: {
          id: expect.any(Number),
          username: user.username,
          email: user.email,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      })
      expect(res.body).not.toContain('scrypt')
    })

    it('stores the email trimmed and lower-cased', async () => {
      const user = newUser('Case')
      const res = await register({ ...user, email: `  ${user.email.toUpperCase()} ` })
      expect(res.json().data.email).toBe(user.email.toLowerCase())
    })

    it('answers 409 CONFLICT for a duplicate email, whatever its case', async () => {
      const user = newUser()
      await register(user)
      const res = await register({ ...newUser(), email: user.email.toUpperCase() })
      expect(outcome(res)).toEqual({ status: 409, code: 'CONFLICT' })
      expect(res.json().errors).toEqual([{ field: 'email', rule: 'unique', message: 'is already taken' }])
    })

    it('answers 409 CONFLICT for a username differing only in case', async () => {
      const user = newUser('dup')
      await register(user)
      const res = await register({ ...newUser(), username: user.username.toUpperCase() })
      expect(outcome(res)).toEqual({ status: 409, code: 'CONFLICT' })
      expect(res.json().errors[0].field).toBe('username')
    })

    it.each([
      ['a missing password', { password: undefined }, 'password', 'required'],
      ['a 7-character password', { password: 'short12' }, 'password', 'minLength'],
      ['a 73-character password', { password: 'x'.repeat(73) }, 'password', 'maxLength'],
      [
        'a password over 72 bytes in 72 characters',
        { password: `${'é'.repeat(40)}${'x'.repeat(32)}` },
        'password',
        'maxBytes',
      ],
      ['an email without @', { email: 'nobody.example.com' }, 'email', 'pattern'],
      ['a username with spaces', { username: 'has space' }, 'username', 'pattern'],
      ['a number as username', { username: 12345 }, 'username', 'type'],
      ['an unknown field', { role: 'admin' }, 'role', 'additionalProperties'],
    ])('answers 400 VALIDATION_FAILED for %s', async (_name, change, field, rule) => {
      const res = await register({ ...newUser(), ...change })
      expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
      expect(res.json().errors).toContainEqual(expect.objectContaining({ field, rule }))
      expect(res.json().data).toBeNull()
    })

    it('accepts a password of exactly 72 bytes', async () => {
      const res = await register({ ...newUser(), password: `${'é'.repeat(36)}` })
      expect(res.statusCode).toBe(201)
    })

    it('never stores the password in clear: the hash is scrypt with a per-user salt', async () => {
      const a = newUser()
      const b = newUser()
      await register(a)
      await register({ ...b, password: a.password })
      const rows = await t.database.db.query.users.findMany({ columns: { email: true, passwordHash: true } })
      const hashes = rows.filter((r) => r.email === a.email || r.email === b.email).map((r) => r.passwordHash)
      expect(hashes).toHaveLength(2)
      for (const hash of hashes) {
        expect(hash).toMatch(/^scrypt\$\d+\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
        expect(hash).not.toContain(a.password)
      }
      expect(hashes[0]).not.toBe(hashes[1])
    })
  })

  describe('POST /api/auth/login', () => {
    it('returns an access token, its lifetime and a refresh token', async () => {
      const user = newUser()
      await register(user)
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: user.password },
      })
      expect(res.statusCode).toBe(200)
      const data = res.json().data
      expect(data).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 900,
        refresh_token: expect.stringMatching(/^[\w-]{43}$/),
      })
    })

    it('signs HS256 tokens with sub, jti, iat and a 15-minute exp', async () => {
      const account = await signUp(t.app)
      const header = JSON.parse(Buffer.from(account.access.split('.')[0] ?? '', 'base64url').toString())
      const claims = claimsOf(account.access)
      expect(header.alg).toBe('HS256')
      expect(claims).toMatchObject({ sub: String(account.id), jti: expect.stringMatching(/^[0-9a-f-]{36}$/) })
      expect(Number(claims.exp) - Number(claims.iat)).toBe(900)
    })

    it('accepts the email in any case and with spaces around it', async () => {
      const user = newUser()
      await register(user)
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: ` ${user.email.toUpperCase()} `, password: user.password },
      })
      expect(res.statusCode).toBe(200)
    })

    it('answers 401 INVALID_CREDENTIALS for a wrong password and for an unknown email alike', async () => {
      const user = newUser()
      await register(user)
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: 'not the password' },
      })
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'nobody@example.com', password: user.password },
      })
      expect(outcome(wrong)).toEqual({ status: 401, code: 'INVALID_CREDENTIALS' })
      expect(unknown.json()).toEqual(wrong.json())
    })

    it('answers 400 VALIDATION_FAILED without a password', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.c' } })
      expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    })
  })

  describe('POST /api/auth/logout', () => {
    it('revokes the access token: the next call with it answers 401 INVALID_TOKEN', async () => {
      const account = await signUp(t.app)
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(account.access) })
      expect(res.json()).toEqual({ status: 'success', message: 'logged out', data: null })
      const after = await me(account.id, account.access)
      expect(outcome(after)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(after.headers['www-authenticate']).toMatch(/^Bearer/)
    })

    it('stores the revocation in the database: it survives a restart', async () => {
      const account = await signUp(t.app)
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(account.access) })
      const claims = claimsOf(account.access)
      const revoked = await t.database.db.query.revokedTokens.findFirst({
        where: (r, { eq }) => eq(r.jti, String(claims.jti)),
      })
      expect(revoked?.expiresAt.getTime()).toBe(Number(claims.exp) * 1000)
      const restarted = await t.rebuild()
      const res = await restarted.inject({
        method: 'GET',
        url: `/api/users/${account.id}`,
        headers: bearer(account.access),
      })
      expect(outcome(res)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
    })

    it('revokes the refresh token of the session too', async () => {
      const account = await signUp(t.app)
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(account.access) })
      const other = await login(t.app, account.email, account.password)
      const res = await refresh(other.access, account.refresh)
      expect(outcome(res)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
    })

    it('leaves the user’s other sessions working', async () => {
      const account = await signUp(t.app)
      const second = await login(t.app, account.email, account.password)
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(account.access) })
      expect((await me(account.id, second.access)).statusCode).toBe(200)
    })

    it('answers 401 UNAUTHENTICATED without a token', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout' })
      expect(outcome(res)).toEqual({ status: 401, code: 'UNAUTHENTICATED' })
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"')
    })
  })

  describe('POST /api/auth/refresh-token', () => {
    it('returns a new pair and retires the old access token', async () => {
      const account = await signUp(t.app)
      const res = await refresh(account.access, account.refresh)
      expect(res.statusCode).toBe(200)
      const data = res.json().data
      expect(data).toMatchObject({ token_type: 'Bearer', expires_in: 900 })
      expect(data.refresh_token).not.toBe(account.refresh)
      expect(data.access_token).not.toBe(account.access)
      expect((await me(account.id, data.access_token)).statusCode).toBe(200)
      expect(outcome(await me(account.id, account.access))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
    })

    it('rotates: the new refresh token works once more', async () => {
      const account = await signUp(t.app)
      const first = (await refresh(account.access, account.refresh)).json().data
      const second = await refresh(first.access_token, first.refresh_token)
      expect(second.statusCode).toBe(200)
    })

    it('detects reuse of a rotated refresh token and revokes the whole family', async () => {
      const account = await signUp(t.app)
      const rotated = (await refresh(account.access, account.refresh)).json().data
      const reuse = await refresh(rotated.access_token, account.refresh)
      expect(outcome(reuse)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(reuse.json().message).toMatch(/already used/)
      // The family is gone: the newest refresh token and access token are dead too.
      expect(outcome(await me(account.id, rotated.access_token))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      const fresh = await login(t.app, account.email, account.password)
      expect(outcome(await refresh(fresh.access, rotated.refresh_token))).toEqual({
        status: 401,
        code: 'INVALID_TOKEN',
      })
    })

    it('answers 401 for an expired refresh token', async () => {
      const account = await signUp(t.app)
      const sid = String(claimsOf(account.access).sid)
      await t.database.db
        .update(refreshTokens)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(refreshTokens.sessionId, sid))
      const res = await refresh(account.access, account.refresh)
      expect(outcome(res)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(res.json().message).toMatch(/expired/)
    })

    it('stores refresh tokens hashed, never as given', async () => {
      const account = await signUp(t.app)
      const rows = await t.database.db.query.refreshTokens.findMany({ columns: { tokenHash: true } })
      expect(rows.length).toBeGreaterThan(0)
      expect(rows.map((r) => r.tokenHash)).not.toContain(account.refresh)
    })

    it('answers 401 for a refresh token of another session', async () => {
      const a = await signUp(t.app)
      const b = await signUp(t.app)
      expect(outcome(await refresh(a.access, b.refresh))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      // b's token was not consumed by the failed attempt.
      expect((await refresh(b.access, b.refresh)).statusCode).toBe(200)
    })

    it('needs no access token: the refresh token alone gets a new pair', async () => {
      const account = await signUp(t.app)
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        payload: { refresh_token: account.refresh },
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().data.refresh_token).not.toBe(account.refresh)
    })

    it('answers 400 VALIDATION_FAILED without a refresh_token', async () => {
      const account = await signUp(t.app)
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        headers: bearer(account.access),
        payload: {},
      })
      expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
      expect(res.json().errors).toEqual([{ field: 'refresh_token', rule: 'required', message: 'is required' }])
    })
  })

  describe('settings', () => {
    it('issues tokens with the configured access-token lifetime', async () => {
      const app = await t.rebuild({ accessTokenTtl: 60 })
      const account = await signUp(app)
      const claims = claimsOf(account.access)
      expect(Number(claims.exp) - Number(claims.iat)).toBe(60)
    })
  })
})
