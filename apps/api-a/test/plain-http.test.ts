import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type TestApp } from './support.js'

/** Serving plain HTTP at any address: moving clients to HTTPS is left to the TLS terminator in front. */
describe('security headers over plain HTTP', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp('pglite', 'plain_http')
  })
  afterAll(() => t?.close())

  it.each(['/docs', '/docs/', '/docs/static/swagger-ui.css', '/docs/json', '/api/health', '/api/nothing'])(
    'sends a Content-Security-Policy without upgrade-insecure-requests on %s',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.headers['content-security-policy']).toContain("default-src 'self'")
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests')
    },
  )

  it("keeps Swagger UI's own policy on its page", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' })
    expect(res.headers['content-security-policy']).toContain("img-src 'self' data: validator.swagger.io")
  })

  it('still sends Strict-Transport-Security, which browsers honour only over HTTPS', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
  })
})
