import { describe, expect, it } from 'vitest'
import { useTestApi } from './support.js'

describe('a method the path does not have', () => {
  const api = useTestApi('pglite', 'method_not_allowed')

  it.each([
    ['PUT', '/api/health', 'GET, HEAD'],
    ['POST', '/api/user/1', 'GET, HEAD, PATCH, DELETE'],
    ['PUT', '/api/user/1/', 'GET, HEAD, PATCH, DELETE'],
    ['PUT', '/api/user/1?fields=all', 'GET, HEAD, PATCH, DELETE'],
    ['GET', '/api/user', 'POST'],
    ['GET', '/api/auth/login', 'POST'],
    ['PUT', '/api/user/not-a-number', 'GET, HEAD, PATCH, DELETE'],
    ['OPTIONS', '/api/user/1', 'GET, HEAD, PATCH, DELETE'],
    ['POST', '/docs/json', 'GET, HEAD'],
  ])('answers %s %s with 405, Allow: %s, in the error envelope', async (method, url, allow) => {
    const res = await api.app.inject({ method: method as 'GET', url })
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
    ['GET', '/api/user/1/more'],
  ])('still answers %s %s, a path no route has, with 404', async (method, url) => {
    const res = await api.app.inject({ method: method as 'GET', url })
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
