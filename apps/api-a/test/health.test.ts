import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type TestApp } from './support.js'

describe.each(testDatabaseKinds())('GET /api/health on %s', (kind) => {
  let t: TestApp

  beforeAll(async () => {
    t = await startApp(kind, 'health')
  })
  afterAll(() => t?.close())

  it('answers 200 with the database up', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'success', message: 'ok', data: { database: 'up' } })
  })

  it('answers 503 with Retry-After when the database is gone', async () => {
    await t.database.close()
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.json()).toMatchObject({ status: 'error', code: 'UNAVAILABLE', data: null, retry_after: 5 })
  })
})
