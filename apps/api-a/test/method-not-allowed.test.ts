import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type TestApp } from './support.js'

describe('a method the path does not have', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp('pglite', 'method_not_allowed')
  })
  afterAll(() => t?.close())

  it.each([
    ['PUT', '/api/health', 'GET, HEAD'],
    ['POST', '/api/users/1', 'GET, HEAD, PATCH, DELETE'],
    ['PUT', '/api/users/1?fields=all', 'GET, HEAD, PATCH, DELETE'],
    ['GET', '/api/auth/login', 'POST'],
    ['DELETE', '/api/auth/logout', 'POST'],
    ['PATCH', '/api/products', 'GET, HEAD, POST'],
    ['PUT', '/api/products/not-a-number', 'GET, HEAD, DELETE'],
    ['OPTIONS', '/api/products/1', 'GET, HEAD, DELETE'],
    ['POST', '/docs/json', 'GET, HEAD'],
  ])('answers %s %s with 405, Allow: %s, in the error envelope', async (method, url, allow) => {
    const res = await t.app.inject({ method: method as 'GET', url })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe(allow)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'METHOD_NOT_ALLOWED',
      message: `method ${method} not allowed on ${url.split('?')[0]}; allowed: ${allow}`,
      data: null,
    })
  })

  it.each([
    ['GET', '/api/nothing'],
    ['PUT', '/api/nothing'],
    ['GET', '/api/users/1/more'],
  ])('still answers %s %s, a path no route has, with 404', async (method, url) => {
    const res = await t.app.inject({ method: method as 'GET', url })
    expect(res.statusCode).toBe(404)
    expect(res.headers.allow).toBeUndefined()
    expect(res.json()).toEqual({
      status: 'error',
      code: 'NOT_FOUND',
      message: `route ${method} ${url} not found`,
      data: null,
    })
  })
})
