import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, newUser, signUp, startApp, type TestApp } from './support.js'

/** Control characters a JSON string can carry (escaped), none of which a single-line field means. */
const controls = [
  ['NUL', '\u0000'],
  ['SOH', '\u0001'],
  ['escape', '\u001b'],
  ['DEL', '\u007f'],
  ['line feed', '\n'],
] as const

describe.each(testDatabaseKinds())('control characters in JSON strings on %s', (kind) => {
  let t: TestApp
  let account: Account
  beforeAll(async () => {
    t = await startApp(kind, 'controls')
    account = await signUp(t.app)
  })
  afterAll(() => t?.close())

  /** Every JSON body of the API, with `value` in one string field. */
  const requests = (value: string) => {
    const fresh = newUser('ctl')
    return [
      ['login email', 'POST', '/api/auth/login', { email: `a${value}@example.com`, password: 'whatever1' }],
      ['login password', 'POST', '/api/auth/login', { email: account.email, password: `pass${value}word` }],
      ['register username', 'POST', '/api/auth/register', { ...fresh, username: `ab${value}c` }],
      ['register email', 'POST', '/api/auth/register', { ...fresh, email: `x${value}${fresh.email}` }],
      ['register password', 'POST', '/api/auth/register', { ...fresh, password: `long pass${value}word` }],
      ['PATCH email', 'PATCH', `/api/users/${account.id}`, { email: `y${value}@example.com` }],
      ['PATCH username', 'PATCH', `/api/users/${account.id}`, { username: `u${value}v` }],
      [
        'PATCH current_password',
        'PATCH',
        `/api/users/${account.id}`,
        { current_password: `p${value}`, password: 'new password 1' },
      ],
      ['refresh token', 'POST', '/api/auth/refresh-token', { refresh_token: `r${value}` }],
      ['product title', 'POST', '/api/products', { title: `lamp${value}`, amount: 1 }],
    ] as const
  }

  it.each(controls)(
    'answers %s in any single-line field with 400 VALIDATION_FAILED naming the field',
    async (_name, value) => {
      for (const [field, method, url, payload] of requests(value)) {
        const res = await t.app.inject({ method, url, headers: bearer(account.access), payload })
        expect({ field, status: res.statusCode, code: res.json().code }).toEqual({
          field,
          status: 400,
          code: 'VALIDATION_FAILED',
        })
        expect(res.json().errors).toContainEqual(expect.objectContaining({ rule: 'controlCharacters' }))
      }
    },
  )

  it.each([
    ['NUL', '\u0000'],
    ['a bell', '\u0007'],
  ])('answers %s in a product description with 400 VALIDATION_FAILED', async (_name, value) => {
    const payload = { title: 'lamp', description: `a${value}b`, amount: 1 }
    const res = await t.app.inject({ method: 'POST', url: '/api/products', headers: bearer(account.access), payload })
    expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(res.json().errors).toEqual([
      { field: 'description', rule: 'controlCharacters', message: 'must not contain control characters' },
    ])
  })

  it('keeps tabs and line breaks in a product description', async () => {
    const payload = { title: 'lamp', description: 'line one\n\tline two\r\n', amount: 1 }
    const res = await t.app.inject({ method: 'POST', url: '/api/products', headers: bearer(account.access), payload })
    expect(res.statusCode).toBe(201)
    expect(res.json().data.description).toBe(payload.description)
  })
  // The guard walks the body itself: a client may nest it deeper than the call stack allows.
  it('answers a field nested 7,000 deep (within the body limit) with 400, never a 500', async () => {
    const payload = `{"email":${'['.repeat(7_000)}${']'.repeat(7_000)},"password":"whatever1"}`
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    expect(res.statusCode).toBe(400)
  })
})
