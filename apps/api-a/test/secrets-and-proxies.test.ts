import { describe, expect, it } from 'vitest'
import { SettingsError, settingsFromEnv } from '../src/config/settings.js'
import { type Account, bearer, signUp, startApp } from './support.js'

const goodSecret = 'k9Vd2-Qx7LmR4tZp8WcY1nB6hJ3sF0gA-u5Ee'

describe('SECRET: refused in every NODE_ENV when it is known or guessable', () => {
  it.each([
    ["docker/.env.example's API A value", 'replace-with-at-least-32-bytes-of-random-a'],
    ["docker/.env.example's API B value", 'replace-with-at-least-32-bytes-of-random-b'],
    ['a placeholder asking to be changed', 'please-change-me-to-something-random-0123456789'],
    ['one character repeated', 'a'.repeat(48)],
    ['a short pattern repeated', 'ab12'.repeat(12)],
    ['too few distinct characters', 'abcdefabcdefabcdefabcdefabcdeffedcba'],
    ['31 bytes', goodSecret.slice(0, 31)],
  ])('refuses %s', (_name, secret) => {
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expect(() => settingsFromEnv({ SECRET: secret, NODE_ENV })).toThrow(SettingsError)
    }
  })

  it('never repeats the refused value in its message', () => {
    const secret = 'replace-with-at-least-32-bytes-of-random-a'
    expect(() => settingsFromEnv({ SECRET: secret })).toThrow(/example value/)
    try {
      settingsFromEnv({ SECRET: secret })
    } catch (error) {
      expect(String(error)).not.toContain(secret)
    }
  })

  it.each([
    ['48 random bytes, base64url', 'Qm9vLXRoaXMtaXMtcmFuZG9tLWVub3VnaC1mb3ItYS10ZXN0LTAxMjM0NTY3'],
    ['32 random bytes, hex', '3f9a0c7be21d4485b6f0a9c3d7e1b5429f0c8a7e6d5b4c3a2f1e0d9c8b7a6f5e'],
  ])('accepts %s', (_name, secret) => {
    expect(settingsFromEnv({ SECRET: secret }).secret).toBe(secret)
  })
})

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['10.0.0.1, 192.168.0.0/16, ::1, fd00::/8', ['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8']],
    ['true', true],
  ])('reads %j as %j', (raw, expected) => {
    expect(settingsFromEnv({ SECRET: goodSecret, TRUST_PROXY: raw }).trustProxy).toEqual(expected)
  })

  it.each(['yes', '10.0.0.0/33', 'proxy.internal', '1.2.3.4/8/1', '-1'])('refuses %j', (raw) => {
    expect(() => settingsFromEnv({ SECRET: goodSecret, TRUST_PROXY: raw })).toThrow(/TRUST_PROXY/)
  })

  it('with a hop count, a client rotating X-Forwarded-For keeps one rate-limit bucket', async () => {
    const t = await startApp('pglite', 'proxyhops', { trustProxy: 1, authRateLimit: 3 })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.${i < 4 ? 7 : 8}` },
          payload: { username: 'x', email: 'bad', password: 'short' },
        })
        statuses.push(res.statusCode)
      }
      // The client is the entry the one proxy appended: 203.0.113.7 four times (the fourth limited), then 203.0.113.8.
      expect(statuses).toEqual([400, 400, 400, 429, 400])
    } finally {
      await t.close()
    }
  })

  it('with a hop count, the password budget is per client behind the proxy', async () => {
    const t = await startApp('pglite', 'proxyclients', { trustProxy: 1 })
    try {
      const strict = await t.rebuild({ trustProxy: 1, authRateLimit: 2 })
      const accounts: Account[] = [await signUp(t.app), await signUp(t.app), await signUp(t.app)]
      const guess = (account: Account, client: string) =>
        strict.inject({
          method: 'PATCH',
          url: `/api/users/${account.id}`,
          remoteAddress: '10.0.0.2',
          headers: { ...bearer(account.access), 'x-forwarded-for': client },
          payload: { email: `new-${account.email}`, current_password: 'wrong password' },
        })
      const [a, b, c] = accounts as [Account, Account, Account]
      const statuses = [
        (await guess(a, '203.0.113.1')).statusCode,
        (await guess(b, '203.0.113.1')).statusCode,
        (await guess(c, '203.0.113.1')).statusCode,
        // Another client behind the same proxy has its own budget.
        (await guess(c, '203.0.113.2')).statusCode,
      ]
      expect(statuses).toEqual([400, 400, 429, 400])
    } finally {
      await t.close()
    }
  })
})
