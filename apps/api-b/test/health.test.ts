import { testDatabaseKinds } from '@weft/tooling/test-db'
import { describe, expect, it } from 'vitest'
import { useTestApi } from './support.js'

describe.each(testDatabaseKinds())('GET /api/health on %s', (kind) => {
  const api = useTestApi(kind, 'health')

  it('answers 200 with the database up', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'success', message: 'ok', data: { database: 'up' } })
  })

  it('tolerates a trailing slash', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/api/health/' })
    expect(res.statusCode).toBe(200)
  })

  it('answers 503 with Retry-After when the database is gone', async () => {
    await api.database.close()
    const res = await api.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.json()).toEqual({
      status: 'error',
      code: 'UNAVAILABLE',
      message: 'the database is unavailable; retry in 5 s',
      data: null,
      retry_after: 5,
    })
  })
})
