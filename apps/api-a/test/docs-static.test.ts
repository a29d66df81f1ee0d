import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from './raw-http.js'
import { startApp, type TestApp } from './support.js'

describe('files under /docs/static', () => {
  let t: TestApp
  let port: number
  beforeAll(async () => {
    t = await startApp('pglite', 'docs_static')
    // Over a real connection: an injected request's URL is normalised before the app sees it.
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as AddressInfo).port
  })
  afterAll(() => t?.close())

  it('serves a file that exists', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/css/)
  })

  it.each(['GET', 'HEAD'])('answers %s of a missing file with 404 NOT_FOUND, not 405', async (method) => {
    const res = await t.app.inject({ method: method as 'GET', url: '/docs/static/missing.js' })
    expect(res.statusCode).toBe(404)
    expect(res.headers.allow).toBeUndefined()
    if (method === 'GET') {
      expect(res.json()).toEqual({
        status: 'error',
        code: 'NOT_FOUND',
        message: 'route GET /docs/static/missing.js not found',
        data: null,
      })
    }
  })

  it('still answers another method on the folder with 405', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/docs/static/missing.js' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
  })

  it('answers a path that climbs out of the folder with 404 NOT_FOUND, not 403', async () => {
    const res = await rawRequest(
      port,
      'GET /docs/static/%2e%2e/%2e%2e/package.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    )
    expect(res.status).toBe(404)
    expect(JSON.parse(res.body)).toEqual({
      status: 'error',
      code: 'NOT_FOUND',
      message: 'route GET /docs/static/%2e%2e/%2e%2e/package.json not found',
      data: null,
    })
  })
})
