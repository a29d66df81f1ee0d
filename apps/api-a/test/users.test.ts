import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, login, newUser, outcome, signUp, startApp, type TestApp } from './support.js'

describe.each(testDatabaseKinds())('/api/users/:id on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'users')
  })
  afterAll(() => t?.close())

  const get = (id: number | string, access: string) =>
    t.app.inject({ method: 'GET', url: `/api/users/${id}`, headers: bearer(access) })
  const patch = (account: Account, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/users/${account.id}`,
      headers: bearer(account.access),
      payload: payload as object,
    })

  describe('GET', () => {
    it('returns your own account without the password hash', async () => {
      const account = await signUp(t.app)
      const res = await get(account.id, account.access)
      expect(res.statusCode).toBe(200)
      expect(Object.keys(res.json().data).sort()).toEqual(['created_at', 'email', 'id', 'updated_at', 'username'])
      expect(res.json().data).toMatchObject({ id: account.id, email: account.email })
    })

    it('answers 403 FORBIDDEN for another user’s account', async () => {
      const a = await signUp(t.app)
      const b = await signUp(t.app)
      expect(outcome(await get(b.id, a.access))).toEqual({ status: 403, code: 'FORBIDDEN' })
    })

    it('answers 401 UNAUTHENTICATED without a token', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/users/1' })
      expect(outcome(res)).toEqual({ status: 401, code: 'UNAUTHENTICATED' })
    })

    it.each(['0', '-1', 'abc', '1.5', '1e3', '2147483648', '99999999999999999999', '1%20OR%201=1', "1'--"])(
      'answers 400 INVALID_ID for id %s',
      async (id) => {
        const account = await signUp(t.app)
        expect(outcome(await get(id, account.access))).toEqual({ status: 400, code: 'INVALID_ID' })
      },
    )
  })

  describe('PATCH', () => {
    it('updates the username and email (trimmed, lower-cased)', async () => {
      const account = await signUp(t.app)
      const next = newUser('renamed')
      const res = await patch(account, {
        username: next.username,
        email: ` ${next.email.toUpperCase()}`,
        current_password: account.password,
      })
      expect(res.statusCode).toBe(200)
      expect(res.json().data).toMatchObject({ username: next.username, email: next.email })
      expect((await get(account.id, account.access)).json().data.email).toBe(next.email)
    })

    it('moves updated_at forward', async () => {
      const account = await signUp(t.app)
      const before = (await get(account.id, account.access)).json().data
      const after = (await patch(account, { username: newUser('later').username })).json().data
      expect(after.created_at).toBe(before.created_at)
      expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at))
    })

    it.each([
      ['id', { id: 999 }],
      ['created_at', { created_at: '2000-01-01T00:00:00Z' }],
      ['updated_at', { updated_at: '2000-01-01T00:00:00Z' }],
      ['role', { role: 'admin' }],
      ['password_hash', { password_hash: 'x' }],
    ])('refuses the non-updatable field %s with 400 VALIDATION_FAILED', async (field, payload) => {
      const account = await signUp(t.app)
      const res = await patch(account, payload)
      expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
      expect(res.json().errors).toContainEqual({
        field,
        rule: 'additionalProperties',
        message: 'is not an accepted field',
      })
    })

    it('answers 400 VALIDATION_FAILED for an empty body', async () => {
      const account = await signUp(t.app)
      expect(outcome(await patch(account, {}))).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    })

    it('answers 409 CONFLICT when the email belongs to someone else', async () => {
      const a = await signUp(t.app)
      const b = await signUp(t.app)
      expect(outcome(await patch(a, { email: b.email, current_password: a.password }))).toEqual({
        status: 409,
        code: 'CONFLICT',
      })
    })

    it('answers 403 FORBIDDEN for another user’s account', async () => {
      const a = await signUp(t.app)
      const b = await signUp(t.app)
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/${b.id}`,
        headers: bearer(a.access),
        payload: { username: newUser().username },
      })
      expect(outcome(res)).toEqual({ status: 403, code: 'FORBIDDEN' })
    })

    it('needs the current password to change the password', async () => {
      const account = await signUp(t.app)
      const without = await patch(account, { password: 'a brand new password' })
      const wrong = await patch(account, { password: 'a brand new password', current_password: 'wrong password' })
      for (const res of [without, wrong]) {
        expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
        expect(res.json().errors[0].field).toBe('current_password')
      }
      expect((await get(account.id, account.access)).statusCode).toBe(200)
    })

    it('changing the password invalidates every token of the user', async () => {
      const account = await signUp(t.app)
      const second = await login(t.app, account.email, account.password)
      const res = await patch(account, { password: 'a brand new password', current_password: account.password })
      expect(res.statusCode).toBe(200)
      expect(outcome(await get(account.id, account.access))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(outcome(await get(account.id, second.access))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      const fresh = await login(t.app, account.email, 'a brand new password')
      const refresh = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        headers: bearer(fresh.access),
        payload: { refresh_token: second.refresh },
      })
      expect(outcome(refresh)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      await expect(login(t.app, account.email, account.password)).rejects.toThrow(/INVALID_CREDENTIALS/)
    })
  })

  describe('DELETE', () => {
    it('deletes your account, its products and its tokens', async () => {
      const account = await signUp(t.app)
      const product = await t.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: bearer(account.access),
        payload: { title: 'orphan', amount: 1 },
      })
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/users/${account.id}`,
        headers: bearer(account.access),
        payload: { current_password: account.password },
      })
      expect(res.json()).toEqual({ status: 'success', message: 'user deleted', data: null })
      expect(outcome(await get(account.id, account.access))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      const gone = await t.app.inject({ method: 'GET', url: `/api/products/${product.json().data.id}` })
      expect(outcome(gone)).toEqual({ status: 404, code: 'NOT_FOUND' })
      await expect(login(t.app, account.email, account.password)).rejects.toThrow(/INVALID_CREDENTIALS/)
    })

    it('answers 403 FORBIDDEN for another user’s account, which stays', async () => {
      const a = await signUp(t.app)
      const b = await signUp(t.app)
      const res = await t.app.inject({ method: 'DELETE', url: `/api/users/${b.id}`, headers: bearer(a.access) })
      expect(outcome(res)).toEqual({ status: 403, code: 'FORBIDDEN' })
      expect((await get(b.id, b.access)).statusCode).toBe(200)
    })
  })
})
