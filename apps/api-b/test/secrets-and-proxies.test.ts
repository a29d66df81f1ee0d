import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { SettingsError, settingsFromEnv } from '../src/config/settings.js'
import { openDatabase } from '../src/db/client.js'
import { testSettings } from './support.js'

const goodSecret = 'k9Vd2-Qx7LmR4tZp8WcY1nB6hJ3sF0gA-u5Ee'

describe('SECRET: refused in every NODE_ENV, and by buildApp, when it is known or guessable', () => {
  it.each([
    ["docker/.env.example's API A value", 'replace-with-at-least-32-bytes-of-random-a'],
    ["docker/.env.example's API B value", 'replace-with-at-least-32-bytes-of-random-b'],
    ['a placeholder asking to be changed', 'please-change-me-to-something-random-0123456789'],
    ['one character repeated', 'a'.repeat(48)],
    ['a short pattern repeated', 'ab12'.repeat(12)],
    ['too few distinct characters', 'abcdefabcdefabcdefabcdefabcdeffedcba'],
    ['31 bytes', goodSecret.slice(0, 31)],
  ])('refuses %s', async (_name, secret) => {
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expect(() => settingsFromEnv({ SECRET: secret, NODE_ENV })).toThrow(SettingsError)
    }
    const database = await openDatabase({ kind: 'pglite' })
    try {
      await expect(buildApp({ database, settings: testSettings({ secret }) })).rejects.toThrow(SettingsError)
    } finally {
      await database.close()
    }
  })

  it('never repeats the refused value in its message', () => {
    const secret = 'replace-with-at-least-32-bytes-of-random-b'
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

describe('TRUST_PROXY (the same setting as API A)', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['1', 1],
    ['10.0.0.1, 192.168.0.0/16, fd00::/8', ['10.0.0.1', '192.168.0.0/16', 'fd00::/8']],
    ['true', true],
  ])('reads %j as %j', (raw, expected) => {
    expect(settingsFromEnv({ SECRET: goodSecret, TRUST_PROXY: raw }).trustProxy).toEqual(expected)
  })

  it.each(['yes', '10.0.0.0/33', 'proxy.internal'])('refuses %j', (raw) => {
    expect(() => settingsFromEnv({ SECRET: goodSecret, TRUST_PROXY: raw })).toThrow(/TRUST_PROXY/)
  })

  it.each([
    ['a hop count', 1],
    ['the proxy’s address', ['10.0.0.2']],
  ])(
    'with %s, each client behind the proxy gets its own login budget; rotating spoofed entries does not help',
    async (_name, trustProxy) => {
      const database = await openDatabase({ kind: 'pglite' })
      await database.migrate()
      const app = await buildApp({ database, settings: testSettings({ trustProxy, loginRateLimitMax: 2 }) })
      try {
        const login = (xff: string) =>
          app.inject({
            method: 'POST',
            url: '/api/auth/login',
            remoteAddress: '10.0.0.2',
            headers: { 'x-forwarded-for': xff },
            payload: { username: `nobody${xff.length}${Math.random()}`.replace('.', ''), password: 'whatever1' },
          })
        const statuses = [
          (await login('198.51.100.1, 203.0.113.7')).statusCode,
          (await login('198.51.100.2, 203.0.113.7')).statusCode,
          (await login('198.51.100.3, 203.0.113.7')).statusCode,
          (await login('203.0.113.8')).statusCode,
        ]
        expect(statuses).toEqual([401, 401, 429, 401])
      } finally {
        await app.close()
        await database.close()
      }
    },
  )
})
