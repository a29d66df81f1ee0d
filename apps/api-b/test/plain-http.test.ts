import { describe, expect, it } from 'vitest'
import { useTestApi } from './support.js'

/** Serving plain HTTP at any address: moving clients to HTTPS is left to the TLS terminator in front. */
describe('security headers over plain HTTP', () => {
  const api = useTestApi('pglite', 'plain_http')

  it.each(['/docs', '/docs/', '/docs/static/swagger-ui.css', '/docs/json', '/api/health', '/api/nothing'])(
    'sends a Content-Security-Policy without upgrade-insecure-requests on %s',
    async (url) => {
      const res = await api.app.inject({ method: 'GET', url })
      expect(res.headers['content-security-policy']).toContain("default-src 'self'")
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests')
    },
  )

  it('still sends Strict-Transport-Security, which browsers honour only over HTTPS', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
  })
})

describe('Swagger UI', () => {
  const api = useTestApi('pglite', 'docs_ui')

  it('is served at /docs, as in API A', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.body).toContain('swagger-ui')
  })

  it('keeps its own Content-Security-Policy and the other security headers', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/docs/' })
    expect(res.headers['content-security-policy']).toContain("img-src 'self' data: validator.swagger.io")
    expect(res.headers).toMatchObject({ 'x-frame-options': 'SAMEORIGIN', 'x-content-type-options': 'nosniff' })
  })
})
