import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCatalogue } from '../src/http/errors.js'
import { startApp, type TestApp } from './support.js'

type Operation = {
  operationId?: string
  security?: unknown[]
  parameters?: { name: string; schema: Record<string, unknown>; description?: string }[]
  requestBody?: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> }
  responses: Record<
    string,
    {
      description: string
      headers?: Record<string, { $ref: string }>
      content: Record<string, { schema: { allOf?: { properties?: { code: { enum: string[] } } }[] } }>
    }
  >
}

describe.each(testDatabaseKinds())('OpenAPI documentation on %s', (kind) => {
  let t: TestApp
  let doc: {
    openapi: string
    servers: unknown[]
    paths: Record<string, Record<string, Operation>>
    components: Record<string, Record<string, unknown>>
  }
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
    )
  const op = (method: string, path: string) => doc.paths[path]?.[method] as Operation

  beforeAll(async () => {
    t = await startApp(kind, 'docs')
    doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json()
  })
  afterAll(() => t?.close())

  it('serves an OpenAPI 3.1 document with every endpoint at /docs/json', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([{ url: '/', description: 'the server that serves this document' }])
    expect(operations().map((o) => `${o.name} ${o.operation.operationId}`)).toEqual([
      'GET /api/health getHealth',
      'POST /api/auth/register register',
      'POST /api/auth/login login',
      'POST /api/auth/logout logout',
      'POST /api/auth/refresh-token refreshToken',
      'GET /api/users/{id} getUser',
      'PATCH /api/users/{id} updateUser',
      'DELETE /api/users/{id} deleteUser',
      'GET /api/products listProducts',
      'POST /api/products createProduct',
      'GET /api/products/{id} getProduct',
      'DELETE /api/products/{id} deleteProduct',
    ])
  })

  it('names public operations with an empty security list and protected ones with the bearer scheme', () => {
    expect(doc.components.securitySchemes?.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    const security = Object.fromEntries(operations().map((o) => [o.name, o.operation.security]))
    expect(security['GET /api/products']).toEqual([])
    expect(security['POST /api/auth/register']).toEqual([])
    expect(security['GET /api/users/{id}']).toEqual([{ bearerAuth: [] }])
    expect(security['POST /api/auth/refresh-token']).toEqual([{}, { bearerAuth: [] }])
    expect(operations().filter((o) => o.operation.security === undefined)).toEqual([])
  })

  it('names its schemas as components', () => {
    expect(Object.keys(doc.components.schemas ?? {})).toEqual([
      'FieldError',
      'ErrorEnvelope',
      'User',
      'TokenPair',
      'Product',
      'Pagination',
    ])
    expect(op('get', '/api/users/{id}').responses['200']?.content['application/json']?.schema).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/User' } },
    })
  })

  it('documents each error status with its description and the codes it carries', () => {
    const responses = op('patch', '/api/users/{id}').responses
    expect(Object.keys(responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
      '429',
      '500',
      '503',
    ])
    const codes = (status: string) =>
      responses[status]?.content['application/json']?.schema.allOf?.[1]?.properties?.code.enum
    expect(codes('400')).toEqual(['INVALID_ID', 'BAD_REQUEST', 'VALIDATION_FAILED'])
    expect(codes('401')).toEqual(['UNAUTHENTICATED', 'INVALID_TOKEN'])
    expect(responses['403']?.description).toBe(`\`FORBIDDEN\`: ${errorCatalogue.FORBIDDEN.when}.`)
    expect(
      operations().filter((o) => Object.values(o.operation.responses).some((r) => /Default/.test(r.description))),
    ).toEqual([])
  })

  it('documents "no data" as JSON Schema null', () => {
    const logout = op('post', '/api/auth/logout').responses['200']?.content['application/json']?.schema
    expect(logout).toMatchObject({ properties: { data: { type: 'null' } } })
    expect(doc.components.schemas?.ErrorEnvelope).toMatchObject({ properties: { data: { type: 'null' } } })
  })

  it('documents Location, WWW-Authenticate, Retry-After and the rate-limit headers', () => {
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` })
    expect(op('post', '/api/products').responses['201']?.headers).toEqual({ location: header('Location') })
    expect(op('get', '/api/users/{id}').responses['401']?.headers).toEqual({
      'www-authenticate': header('WwwAuthenticate'),
    })
    expect(op('get', '/api/health').responses['503']?.headers).toEqual({ 'retry-after': header('RetryAfter') })
    expect(op('post', '/api/auth/login').responses['429']?.headers).toEqual({
      'retry-after': header('RetryAfter'),
      'x-ratelimit-limit': header('RateLimitLimit'),
      'x-ratelimit-remaining': header('RateLimitRemaining'),
      'x-ratelimit-reset': header('RateLimitReset'),
    })
    expect(doc.components.headers?.RetryAfter).toEqual({
      description: 'seconds to wait before retrying',
      required: true,
      schema: { type: 'integer' },
    })
  })

  it('accepts the page, limit and offset the server clamps, and says how', () => {
    const parameters = Object.fromEntries(
      (op('get', '/api/products').parameters ?? []).map((p) => [p.name, { ...p.schema, description: p.description }]),
    )
    for (const name of ['page', 'limit', 'offset']) {
      expect(parameters[name]).not.toHaveProperty('minimum')
      expect(parameters[name]).not.toHaveProperty('maximum')
    }
    expect(parameters.limit?.description).toMatch(/above 100 counts as 100/)
    expect(parameters.offset?.description).toMatch(/above 100000 as 100000/)
  })

  it('states the password byte rule JSON Schema cannot', () => {
    const body = op('post', '/api/auth/register').requestBody?.content['application/json']?.schema
    expect(body?.properties.password?.description).toMatch(/at most 72 bytes in UTF-8/)
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
