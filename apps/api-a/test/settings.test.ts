import { describe, expect, it } from 'vitest'
import { SettingsError, settingsFromEnv } from '../src/config/settings.js'
import { databaseSettingsFromEnv } from '../src/db/client.js'

const SECRET = 'k9Vd2-Qx7LmR4tZp8WcY1nB6hJ3sF0gA'

describe('settingsFromEnv', () => {
  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['31 bytes', 's'.repeat(31)],
    ['15 two-byte characters (30 bytes)', 'é'.repeat(15)],
  ])('refuses a SECRET that is %s', (_name, secret) => {
    expect(() => settingsFromEnv({ SECRET: secret })).toThrow(SettingsError)
    expect(() => settingsFromEnv({ SECRET: secret })).toThrow(/SECRET must be set to at least 32 bytes/)
  })

  it('counts the SECRET in bytes: 16 two-byte characters are enough', () => {
    const twoByteCharacters = 'éàüöäßçñøåæœłśźż'
    expect(settingsFromEnv({ SECRET: twoByteCharacters }).secret).toBe(twoByteCharacters)
  })

  it('defaults to a 15-minute access token, 16 KiB bodies, 10 auth requests a minute and no CORS', () => {
    expect(settingsFromEnv({ SECRET })).toEqual({
      secret: SECRET,
      accessTokenTtl: 900,
      refreshTokenTtl: 604_800,
      scryptCost: 32_768,
      passwordQueueMax: 64,
      bodyLimit: 16_384,
      authRateLimit: 10,
      authRateWindowMs: 60_000,
      trustProxy: false,
      handlerTimeoutMs: 15_000,
      requestTimeoutMs: 30_000,
      idleConnectionTimeoutMs: 10_000,
      corsOrigins: [],
    })
  })

  it('reads the configurable values', () => {
    const settings = settingsFromEnv({
      SECRET,
      ACCESS_TOKEN_TTL: '60',
      SCRYPT_COST: '1024',
      TRUST_PROXY: 'true',
      HANDLER_TIMEOUT_MS: '2000',
    })
    expect(settings).toMatchObject({ accessTokenTtl: 60, scryptCost: 1024, trustProxy: true, handlerTimeoutMs: 2000 })
  })

  it.each([
    ['ACCESS_TOKEN_TTL', 'soon'],
    ['ACCESS_TOKEN_TTL', '0'],
    ['SCRYPT_COST', '1000'],
    ['BODY_LIMIT', '-1'],
    ['HANDLER_TIMEOUT_MS', '0'],
    ['IDLE_CONNECTION_TIMEOUT_MS', '0'],
  ])('refuses %s=%s', (key, value) => {
    expect(() => settingsFromEnv({ SECRET, [key]: value })).toThrow(new RegExp(key))
  })
})

describe('databaseSettingsFromEnv', () => {
  it('uses the embedded database without DB settings', () => {
    expect(databaseSettingsFromEnv({ PGLITE_DIR: '/tmp/x' })).toEqual({ kind: 'pglite', dataDir: '/tmp/x' })
  })

  it('builds a PostgreSQL URL from DB_HOST, DB_PORT, DB_USER, DB_PASSWORD and DB_NAME', () => {
    const settings = databaseSettingsFromEnv({
      DB_HOST: 'db',
      DB_PORT: '5433',
      DB_USER: 'api',
      DB_PASSWORD: 'p@ss word',
      DB_NAME: 'shop',
    })
    expect(settings).toEqual({ kind: 'postgres', url: 'postgres://api:p%40ss%20word@db:5433/shop' })
  })
})

describe('PASSWORD_QUEUE_MAX', () => {
  it('is read from the environment and refuses 0', () => {
    expect(settingsFromEnv({ SECRET, PASSWORD_QUEUE_MAX: '500' }).passwordQueueMax).toBe(500)
    expect(() => settingsFromEnv({ SECRET, PASSWORD_QUEUE_MAX: '0' })).toThrow(/PASSWORD_QUEUE_MAX/)
  })
})
