import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, signUp, startApp, type TestApp } from './support.js'

describe('what a refused body is told', () => {
  let t: TestApp
  let account: Account
  beforeAll(async () => {
    t = await startApp('pglite', 'body_messages')
    account = await signUp(t.app)
  })
  afterAll(() => t?.close())

  const send = (url: string, payload: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...bearer(account.access) },
      payload,
    })

  it.each([
    ['a "__proto__" key', '{"email":"a@example.com","password":"whatever1","__proto__":{"admin":true}}', '__proto__'],
    ['a "constructor" key with a prototype', '{"email":"a@example.com","constructor":{"prototype":{}}}', 'constructor'],
    ['a nested "__proto__" key', '{"email":{"__proto__":{"x":1}},"password":"whatever1"}', 'email.__proto__'],
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

  it.each([
    ['a control character', '"\\u0007"'],
    ['text', '"three"'],
  ])('answers %s as the amount of a product with "amount must be an integer"', async (_case, amount) => {
    const res = await send('/api/products', `{"title":"Lamp","amount":${amount}}`)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'VALIDATION_FAILED',
      message: 'amount must be an integer',
      data: null,
      errors: [{ field: 'amount', rule: 'type', message: 'must be an integer' }],
    })
  })

  it('still refuses a control character in a text field of the product', async () => {
    const res = await send('/api/products', '{"title":"La\\u0007mp","amount":1}')
    expect(res.statusCode).toBe(400)
    expect(res.json().errors).toEqual([
      { field: 'title', rule: 'controlCharacters', message: 'must not contain control characters' },
    ])
  })
})
