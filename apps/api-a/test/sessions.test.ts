import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, claimsOf, forgeToken, outcome, signUp, startApp, type TestApp } from './support.js'

const now = () => Math.floor(Date.now() / 1000)

describe.each(testDatabaseKinds())('sessions that survive a stolen refresh token on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'sessions')
  })
  afterAll(() => t?.close())

  const refresh = (refreshToken: string, access?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      headers: access === undefined ? {} : bearer(access),
      payload: { refresh_token: refreshToken },
    })
  const readSelf = (account: Account, access: string) =>
    t.app.inject({ method: 'GET', url: `/api/users/${account.id}`, headers: bearer(access) })
  /** The same access token, authentic (signed with the secret) but expired a minute ago. */
  const expired = (access: string) => forgeToken({ ...claimsOf(access), iat: now() - 3600, exp: now() - 60 })

  describe('refresh after the access token has expired', () => {
    it('rotates with the expired access token of the same session', async () => {
      const account = await signUp(t.app)
      const res = await refresh(account.refresh, expired(account.access))
      expect(res.statusCode).toBe(200)
      expect((await readSelf(account, res.json().data.access_token)).statusCode).toBe(200)
    })

    it('rotates with the refresh token alone', async () => {
      const account = await signUp(t.app)
      const res = await refresh(account.refresh)
      expect(res.statusCode).toBe(200)
      expect((await readSelf(account, res.json().data.access_token)).statusCode).toBe(200)
    })

    it('rotates once a really issued access token has run out (ACCESS_TOKEN_TTL=1)', async () => {
      const app = await t.rebuild({ accessTokenTtl: 1 })
      const account = await signUp(app)
      await new Promise((resolve) => setTimeout(resolve, 2100))
      const stale = await app.inject({
        method: 'GET',
        url: `/api/users/${account.id}`,
        headers: bearer(account.access),
      })
      expect(outcome(stale)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        headers: bearer(account.access),
        payload: { refresh_token: account.refresh },
      })
      expect(res.statusCode).toBe(200)
    })

    it.each([
      ['signed with another secret', (a: string) => forgeToken(claimsOf(a), { secret: 'x'.repeat(40) })],
      ['alg none', (a: string) => forgeToken(claimsOf(a), { alg: 'none' })],
      ['not a JWT', () => 'garbage'],
    ])('refuses an access token %s, and leaves the refresh token usable', async (_name, forge) => {
      const account = await signUp(t.app)
      expect(outcome(await refresh(account.refresh, forge(account.access)))).toEqual({
        status: 401,
        code: 'INVALID_TOKEN',
      })
      expect((await refresh(account.refresh)).statusCode).toBe(200)
    })

    it('refuses an access token of another session, and leaves the refresh token usable', async () => {
      const [a, b] = [await signUp(t.app), await signUp(t.app)]
      expect(outcome(await refresh(a.refresh, expired(b.access)))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect((await refresh(a.refresh, a.access)).statusCode).toBe(200)
    })

    it('refuses the refresh token of a logged-out session', async () => {
      const account = await signUp(t.app)
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(account.access) })
      expect(outcome(await refresh(account.refresh))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
    })
  })

  describe('theft, then replay (RFC 9700 §4.14)', () => {
    it('the thief rotates first: the victim’s replay revokes the thief’s session', async () => {
      const victim = await signUp(t.app)
      const stolen = (await refresh(victim.refresh)).json().data
      const replay = await refresh(victim.refresh, expired(victim.access))
      expect(outcome(replay)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(outcome(await readSelf(victim, stolen.access_token))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(outcome(await refresh(stolen.refresh_token, stolen.access_token))).toEqual({
        status: 401,
        code: 'INVALID_TOKEN',
      })
    })

    it('the victim rotates first: the thief’s replay revokes the victim’s new tokens too', async () => {
      const victim = await signUp(t.app)
      const renewed = (await refresh(victim.refresh, victim.access)).json().data
      expect(outcome(await refresh(victim.refresh))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(outcome(await readSelf(victim, renewed.access_token))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(outcome(await refresh(renewed.refresh_token))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
    })

    it('a replay with a forged or foreign access token still revokes the session', async () => {
      const [victim, thief] = [await signUp(t.app), await signUp(t.app)]
      const renewed = (await refresh(victim.refresh)).json().data
      expect(outcome(await refresh(victim.refresh, thief.access))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect(outcome(await readSelf(victim, renewed.access_token))).toEqual({ status: 401, code: 'INVALID_TOKEN' })
      expect((await readSelf(thief, thief.access)).statusCode).toBe(200)
    })
  })

  describe('Cache-Control: no-store', () => {
    it('is on login, refresh and register answers and on user reads and updates', async () => {
      const account = await signUp(t.app)
      const answers = [
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: account.email, password: account.password },
        }),
        await refresh(account.refresh, account.access),
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { username: `ns${account.id}x`, email: `ns${account.email}`, password: 'long enough 1' },
        }),
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: account.email, password: 'wrong password' },
        }),
      ]
      const fresh = await signUp(t.app)
      answers.push(await readSelf(fresh, fresh.access))
      answers.push(
        await t.app.inject({
          method: 'PATCH',
          url: `/api/users/${fresh.id}`,
          headers: bearer(fresh.access),
          payload: { username: `renamed${fresh.id}` },
        }),
      )
      for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store')
    })
  })
})
