import { describe, expect, it } from 'vitest'
import { useTestApi } from './support.js'

describe('what a refused body is told', () => {
  const api = useTestApi('pglite', 'body_messages')

  const send = (url: string, payload: string) =>
    api.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload })

  it.each([
    ['a "__proto__" key', '{"username":"ada","password":"whatever1","__proto__":{"admin":true}}', '__proto__'],
    ['a "constructor" key with a prototype', '{"username":"ada","constructor":{"prototype":{}}}', 'constructor'],
    ['a nested "__proto__" key', '{"username":{"__proto__":{"x":1}},"password":"whatever1"}', 'username.__proto__'],
  ])(
    'answers valid JSON with %s as a field that is not accepted, not as invalid JSON',
    async (_case, payload, field) => {
      const res = await send('/api/auth/login', payload)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        status: 'error',
        code: 'VALIDATION_FAILED',
        message: `${field} is not an accepted field name`,
        data: null,
        errors: [{ field, rule: 'forbiddenKey', message: 'is not an accepted field name' }],
      })
    },
  )

  it('still answers a body that is not JSON as invalid JSON', async () => {
    const res = await send('/api/auth/login', '{"__proto__":')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'request body is not valid JSON' })
  })
})
