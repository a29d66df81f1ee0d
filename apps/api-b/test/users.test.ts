import { testDatabaseKinds } from '@weft/tooling/test-db'
import { describe, expect, it } from 'vitest'
import { bearer, errorOf, loginToken, newUser, registeredUser, useTestApi } from './support.js'

describe.each(testDatabaseKinds())('GET|PATCH|DELETE /api/user/:id on %s', (kind) => {
  const api = useTestApi(kind, 'users')
  const call = (method: 'GET' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    api.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })

  describe('GET', () => {
    it('returns your own account in the public representation', async () => {
      const me = await registeredUser(api.app)
      const res = await call('GET', `/api/user/${me.id}`, me.token)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'success', message: 'user found', data: me.user })
      expect(Object.keys(res.json().data).sort()).toEqual(['created_at', 'email', 'id', 'updated_at', 'username'])
    })

    it('tolerates a trailing slash', async () => {
      const me = await registeredUser(api.app)
      const res = await call('GET', `/api/user/${me.id}/`, me.token)
      expect(res.statusCode).toBe(200)
    })

    it("answers 403 FORBIDDEN for another user's account", async () => {
      const me = await registeredUser(api.app)
      const other = await registeredUser(api.app)
      const res = await call('GET', `/api/user/${other.id}`, me.token)
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({
        status: 'error',
        code: 'FORBIDDEN',
        message: 'you may only access your own account',
        data: null,
      })
    })

    it('answers 403 for an id nobody has (existence is not revealed)', async () => {
      const me = await registeredUser(api.app)
      const res = await call('GET', '/api/user/2000000000', me.token)
      expect(errorOf(res)).toMatchObject({ status: 403, code: 'FORBIDDEN' })
    })

    it.each([
      ['letters', 'abc'],
      ['zero', '0'],
      ['a negative number', '-1'],
      ['a fraction', '1.5'],
      ['an exponent', '1e3'],
      ['hexadecimal', '0x10'],
      ['SQL', '1%20OR%201%3D1'],
      ['SQL with a quote', "1'--"],
      ['a number beyond 32 bits', '99999999999'],
      ['2^31', '2147483648'],
    ])('answers 400 INVALID_ID for %s', async (_name, id) => {
      const me = await registeredUser(api.app)
      const res = await call('GET', `/api/user/${id}`, me.token)
      expect(res.json()).toMatchObject({ status: 'error', code: 'INVALID_ID', data: null })
      expect(res.statusCode).toBe(400)
    })

    it('checks the token before the id', async () => {
      const res = await api.app.inject({ method: 'GET', url: '/api/user/abc' })
      expect(errorOf(res)).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' })
    })
  })

  describe('PATCH', () => {
    it('updates username and email and returns the account', async () => {
      const me = await registeredUser(api.app)
      const fresh = newUser('renamed')
      const res = await call('PATCH', `/api/user/${me.id}`, me.token, {
        username: fresh.username,
        email: ` ${fresh.email.toUpperCase()}`,
        current_password: me.password,
      })
      expect(res.statusCode).toBe(200)
      const data = res.json().data
      expect(data).toMatchObject({ id: me.id, username: fresh.username, email: fresh.email })
      expect(data.created_at).toBe(me.user.created_at)
      expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(me.user.updated_at))
      const read = await call('GET', `/api/user/${me.id}`, me.token)
      expect(read.json().data).toEqual(data)
    })

    it('keeps the token valid when only the username or email changes', async () => {
      const me = await registeredUser(api.app)
      await call('PATCH', `/api/user/${me.id}`, me.token, { email: newUser().email })
      expect((await call('GET', `/api/user/${me.id}`, me.token)).statusCode).toBe(200)
    })

    it('changes the password: the new one logs in, the old one and old tokens do not', async () => {
      const me = await registeredUser(api.app)
      const res = await call('PATCH', `/api/user/${me.id}`, me.token, {
        password: 'a brand new password',
        current_password: me.password,
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().message).toBe('user updated; log in again')
      expect(res.body).not.toContain('a brand new password')

      const stale = await call('GET', `/api/user/${me.id}`, me.token)
      expect(errorOf(stale)).toMatchObject({ status: 401, code: 'INVALID_TOKEN' })

      const oldLogin = await api.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: me.username, password: me.password },
      })
      expect(errorOf(oldLogin)).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' })

      const token = await loginToken(api.app, me.username, 'a brand new password')
      expect((await call('GET', `/api/user/${me.id}`, token)).statusCode).toBe(200)
    })

    it.each([
      ['without current_password', { password: 'a brand new password' }],
      ['with a wrong current_password', { password: 'a brand new password', current_password: 'not my password' }],
    ])('refuses a password change %s, and the token stays valid', async (_name, payload) => {
      const me = await registeredUser(api.app)
      const res = await call('PATCH', `/api/user/${me.id}`, me.token, payload)
      expect(errorOf(res)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
      expect(res.json().errors).toEqual([
        { field: 'current_password', rule: 'matches', message: 'must be your current password to change it' },
      ])
      expect((await call('GET', `/api/user/${me.id}`, me.token)).statusCode).toBe(200)
      expect(await loginToken(api.app, me.username, me.password)).toBeTruthy()
    })

    it('answers 400 for current_password alone (nothing to change)', async () => {
      const me = await registeredUser(api.app)
      const res = await call('PATCH', `/api/user/${me.id}`, me.token, { current_password: me.password })
      expect(errorOf(res)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
      expect(res.json().errors[0]).toMatchObject({ field: '', rule: 'minProperties' })
    })

    it.each([
      ['id', { id: 1 }],
      ['created_at', { created_at: '2000-01-01T00:00:00Z' }],
      ['updated_at', { updated_at: '2000-01-01T00:00:00Z' }],
      ['token_version', { token_version: 0 }],
      ['password_hash', { password_hash: 'scrypt$1$1$1$x$y' }],
      ['role', { role: 'admin' }],
    ])('refuses a non-updatable field (%s) with 400 and changes nothing', async (field, payload) => {
      const me = await registeredUser(api.app)
      const res = await call('PATCH', `/api/user/${me.id}`, me.token, { username: newUser().username, ...payload })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' })
      expect(res.json().errors).toContainEqual({
        field,
        rule: 'additionalProperties',
        message: 'is not an accepted field',
      })
      expect((await call('GET', `/api/user/${me.id}`, me.token)).json().data).toEqual(me.user)
    })

    it('answers 400 for an empty change', async () => {
      const me = await registeredUser(api.app)
      const res = await call('PATCH', `/api/user/${me.id}`, me.token, {})
      expect(errorOf(res)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
    })

    it('answers 400 for an invalid value', async () => {
      const me = await registeredUser(api.app)
      const res = await call('PATCH', `/api/user/${me.id}`, me.token, { email: 'not-an-email' })
      expect(errorOf(res)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
      expect(res.json().errors).toContainEqual(expect.objectContaining({ field: 'email', rule: 'pattern' }))
    })

    it('answers 409 when the new username or email belongs to someone else', async () => {
      const me = await registeredUser(api.app)
      const other = await registeredUser(api.app)
      const byName = await call('PATCH', `/api/user/${me.id}`, me.token, {
        username: other.username.toUpperCase(),
        current_password: me.password,
      })
      expect(errorOf(byName)).toMatchObject({ status: 409, code: 'CONFLICT' })
      const byEmail = await call('PATCH', `/api/user/${me.id}`, me.token, { email: other.email })
      expect(byEmail.json().errors).toEqual([{ field: 'email', rule: 'unique', message: 'is already taken' }])
    })

    it("answers 403 for another user's account and leaves it unchanged", async () => {
      const me = await registeredUser(api.app)
      const other = await registeredUser(api.app)
      const res = await call('PATCH', `/api/user/${other.id}`, me.token, { username: newUser().username })
      expect(errorOf(res)).toMatchObject({ status: 403, code: 'FORBIDDEN' })
      expect((await call('GET', `/api/user/${other.id}`, other.token)).json().data).toEqual(other.user)
    })

    it('answers 401 without a token', async () => {
      const res = await api.app.inject({ method: 'PATCH', url: '/api/user/1', payload: { username: 'someone' } })
      expect(errorOf(res)).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' })
    })
  })

  describe('DELETE', () => {
    it('deletes your account; its token and its password stop working', async () => {
      const me = await registeredUser(api.app)
      const res = await call('DELETE', `/api/user/${me.id}`, me.token, { current_password: me.password })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'success', message: 'user deleted', data: null })

      const after = await call('GET', `/api/user/${me.id}`, me.token)
      expect(errorOf(after)).toMatchObject({ status: 401, code: 'INVALID_TOKEN' })
      const again = await call('DELETE', `/api/user/${me.id}`, me.token, { current_password: me.password })
      expect(errorOf(again)).toMatchObject({ status: 401, code: 'INVALID_TOKEN' })
      const relogin = await api.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: me.username, password: me.password },
      })
      expect(errorOf(relogin)).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' })
    })

    it('frees the username and email for a new registration', async () => {
      const me = await registeredUser(api.app)
      await call('DELETE', `/api/user/${me.id}`, me.token, { current_password: me.password })
      const res = await api.app.inject({
        method: 'POST',
        url: '/api/user',
        payload: { username: me.username, email: me.email, password: me.password },
      })
      expect(res.statusCode).toBe(201)
      expect(res.json().data.id).not.toBe(me.id)
    })

    it("answers 403 for another user's account and keeps it", async () => {
      const me = await registeredUser(api.app)
      const other = await registeredUser(api.app)
      const res = await call('DELETE', `/api/user/${other.id}`, me.token)
      expect(errorOf(res)).toMatchObject({ status: 403, code: 'FORBIDDEN' })
      expect((await call('GET', `/api/user/${other.id}`, other.token)).statusCode).toBe(200)
    })

    it('answers 400 for an invalid id', async () => {
      const me = await registeredUser(api.app)
      const res = await call('DELETE', '/api/user/1;DROP%20TABLE%20users', me.token)
      expect(errorOf(res)).toMatchObject({ status: 400, code: 'INVALID_ID' })
    })
  })
})
