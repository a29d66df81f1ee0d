import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { SettingsError, settingsFromEnv } from '../src/config/settings.js'
import type { DatabaseHandle } from '../src/db/client.js'
import { TEST_SECRET, testSettings } from './support.js'

describe('settings', () => {
  it('reads the defaults: one-hour tokens, port 3001 (beside API A), embedded database', () => {
    const settings = settingsFromEnv({ SECRET: TEST_SECRET, PGLITE_DIR: '/tmp/x' })
    expect(settings).toMatchObject({
      secret: TEST_SECRET,
      tokenTtlSeconds: 3600,
      port: 3001,
      bodyLimit: 16384,
      idleConnectionTimeoutMs: 10_000,
      database: { kind: 'pglite', dataDir: '/tmp/x' },
    })
  })

  it('connects to localhost when only DB_PORT/DB_USER/DB_PASSWORD/DB_NAME are set', () => {
    const settings = settingsFromEnv({
      SECRET: TEST_SECRET,
      DB_PORT: '5433',
      DB_USER: 'api',
      DB_PASSWORD: 'p@ss word',
      DB_NAME: 'users',
    })
    expect(settings.database).toEqual({ kind: 'postgres', url: 'postgres://api:p%40ss%20word@localhost:5433/users' })
  })

  it('takes the host from DB_HOST (set by compose)', () => {
    const settings = settingsFromEnv({ SECRET: TEST_SECRET, DB_HOST: 'db-b', DB_NAME: 'users' })
    expect(settings.database).toMatchObject({ url: expect.stringContaining('@db-b:5432/users') })
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['31 bytes', 'x'.repeat(31)],
  ])('refuses a SECRET that is %s', (_name, secret) => {
    expect(() => settingsFromEnv({ SECRET: secret })).toThrow(/SECRET must be at least 32 bytes/)
  })

  it('counts the SECRET in bytes, not characters', () => {
    expect(() => settingsFromEnv({ SECRET: 'éàüöäßçñøåæœłśźż' })).not.toThrow()
    expect(() => settingsFromEnv({ SECRET: 'éàüöäßçñøåæœłśź' })).toThrow(SettingsError)
  })

  it('refuses numbers that are not positive integers, naming the setting', () => {
    expect(() => settingsFromEnv({ SECRET: TEST_SECRET, TOKEN_TTL_SECONDS: '1h' })).toThrow(/TOKEN_TTL_SECONDS/)
    expect(() => settingsFromEnv({ SECRET: TEST_SECRET, SCRYPT_COST: '1000' })).toThrow(/SCRYPT_COST/)
    expect(() => settingsFromEnv({ SECRET: TEST_SECRET, IDLE_CONNECTION_TIMEOUT_MS: '0' })).toThrow(
      /idleConnectionTimeoutMs/,
    )
  })

  it('makes buildApp refuse a short secret too, before touching the database', async () => {
    const database = {} as DatabaseHandle
    await expect(buildApp({ database, settings: testSettings({ secret: 'short' }) })).rejects.toThrow(SettingsError)
  })

  it('makes the server refuse to start, with a clear message and exit code 1', () => {
    const server = new URL('../src/server.ts', import.meta.url).pathname
    const result = spawnSync(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', server], {
      env: { PATH: process.env.PATH ?? '', SECRET: 'too-short', PGLITE_DIR: '/nonexistent/never-created' },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('api-b refuses to start')
    expect(result.stderr).toContain('SECRET must be at least 32 bytes')
  }, 90_000)
})
