import { type FrozenPostgres, startFrozenPostgres } from '@weft/tooling/frozen-postgres'
import { createScratchDatabase, type ScratchDatabase, testDatabaseKinds } from '@weft/tooling/test-db'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { openDatabase } from '../src/db/client.js'
import { bearer, newUser, registeredUser, testSettings, useTestApi } from './support.js'

const unavailable = {
  status: 'error',
  code: 'UNAVAILABLE',
  message: 'the database is unavailable; retry in 5 s',
  data: null,
  retry_after: 5,
}

describe.each(testDatabaseKinds())('requests while the database is closed on %s', (kind) => {
  const api = useTestApi(kind, 'db_closed')
  let me: Awaited<ReturnType<typeof registeredUser>>
  beforeAll(async () => {
    me = await registeredUser(api.app)
    await api.database.close()
  })

  it.each([
    ['register', () => ({ method: 'POST' as const, url: '/api/user', payload: newUser() })],
    [
      'login',
      () => ({
        method: 'POST' as const,
        url: '/api/auth/login',
        payload: { username: me.username, password: me.password },
      }),
    ],
    ['read', () => ({ method: 'GET' as const, url: `/api/user/${me.id}`, headers: bearer(me.token) })],
    ['delete', () => ({ method: 'DELETE' as const, url: `/api/user/${me.id}`, headers: bearer(me.token) })],
  ])('answers %s with 503 and Retry-After', async (_name, request) => {
    const res = await api.app.inject(request())
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.json()).toEqual(unavailable)
  })
})

describe('a PostgreSQL server that refuses connections', () => {
  it('answers 503 instead of hanging or crashing', async () => {
    const database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' })
    const app = await buildApp({ database, settings: testSettings() })
    try {
      const res = await app.inject({ method: 'POST', url: '/api/user', payload: newUser() })
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual(unavailable)
    } finally {
      await app.close()
      await database.close()
    }
  })
})

describe('a database that accepts connections and never answers', () => {
  let frozen: FrozenPostgres
  beforeAll(async () => {
    frozen = await startFrozenPostgres()
  })
  afterAll(async () => {
    await frozen.close()
  })

  it('answers 503 once the handler timeout passes', async () => {
    const database = await openDatabase({ kind: 'postgres', url: frozen.url })
    const app = await buildApp({ database, settings: testSettings({ handlerTimeoutMs: 300 }) })
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'a', password: 'b' },
      })
      expect(res.statusCode).toBe(503)
      expect(res.headers['retry-after']).toBe('5')
      expect(res.json()).toMatchObject({ code: 'UNAVAILABLE' })
    } finally {
      await app.close()
      await database.close().catch(() => {})
    }
  })
})

// Only a real server has connections to cut: the test's own when TEST_DATABASE_URL is unset.
describe('connections cut by pg_terminate_backend', () => {
  let scratch: ScratchDatabase

  beforeAll(async () => {
    scratch = await createScratchDatabase('api_b_terminate')
  })
  afterAll(async () => {
    await scratch?.drop()
  })

  it('answers 503 or succeeds, never 500, and recovers by itself', async () => {
    const database = await openDatabase({ kind: 'postgres', url: scratch.url })
    await database.migrate()
    const app = await buildApp({ database, settings: testSettings() })
    const admin = postgres(scratch.url, { max: 1, onnotice: () => {} })
    try {
      const me = await registeredUser(app)
      const name = new URL(scratch.url).pathname.slice(1)
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`

      const statuses: number[] = []
      for (let attempt = 0; attempt < 5; attempt++) {
        const res = await app.inject({ method: 'GET', url: `/api/user/${me.id}`, headers: bearer(me.token) })
        statuses.push(res.statusCode)
        if (res.statusCode === 200) break
        expect(res.json()).toEqual(unavailable)
      }
      expect(statuses.every((status) => status === 200 || status === 503)).toBe(true)
      expect(statuses.at(-1)).toBe(200)
    } finally {
      await admin.end()
      await app.close()
      await database.close()
    }
  })
})
