import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type TestApp } from './support.js'

describe.each(testDatabaseKinds())('OpenAPI documentation on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'docs')
  })
  afterAll(() => t?.close())

  it('serves an OpenAPI 3 document with every endpoint at /docs/json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toMatch(/^3\./)
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations.sort()).toEqual(
      [
        'DELETE /api/products/{id}',
        'DELETE /api/users/{id}',
        'GET /api/health',
        'GET /api/products',
        'GET /api/products/{id}',
        'GET /api/users/{id}',
        'PATCH /api/users/{id}',
        'POST /api/auth/login',
        'POST /api/auth/logout',
        'POST /api/auth/refresh-token',
        'POST /api/auth/register',
        'POST /api/products',
      ].sort(),
    )
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    expect(doc.paths['/api/users/{id}'].get.security).toEqual([{ bearerAuth: [] }])
    expect(doc.paths['/api/products/{id}'].delete.responses['4XX'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    })
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(['status', 'code', 'message', 'data'])
    expect(doc.paths['/api/auth/register'].post.requestBody.content['application/json'].schema.required).toEqual([
      'username',
      'email',
      'password',
    ])
  })

  it('serves Swagger UI at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/html')
    expect(res.body).toContain('swagger-ui')
  })

  it('gives Swagger UI its own Content-Security-Policy and keeps the other security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' })
    expect(res.headers['content-security-policy']).toContain("img-src 'self' data: validator.swagger.io")
    expect(res.headers).toMatchObject({ 'x-frame-options': 'SAMEORIGIN', 'x-content-type-options': 'nosniff' })
  })
})
