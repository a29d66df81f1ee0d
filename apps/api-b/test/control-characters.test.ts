import { testDatabaseKinds } from '@weft/tooling/test-db'
import { beforeAll, describe, expect, it } from 'vitest'
import { bearer, errorOf, newUser, registeredUser, useTestApi } from './support.js'

const controls = [
  ['NUL', '\u0000'],
  ['SOH', '\u0001'],
  ['escape', '\u001b'],
  ['DEL', '\u007f'],
  ['line feed', '\n'],
] as const

describe.each(testDatabaseKinds())('control characters in JSON strings on %s', (kind) => {
  const api = useTestApi(kind, 'controls')
  let me: Awaited<ReturnType<typeof registeredUser>>
  beforeAll(async () => {
    me = await registeredUser(api.app)
  })

  const requests = (value: string) => {
    const fresh = newUser('ctl')
    return [
      ['login username', 'POST', '/api/auth/login', { username: `a${value}b`, password: 'whatever1' }],
      ['login password', 'POST', '/api/auth/login', { username: me.username, password: `pass${value}word` }],
      ['register username', 'POST', '/api/user', { ...fresh, username: `ab${value}c` }],
      ['register email', 'POST', '/api/user', { ...fresh, email: `x${value}${fresh.email}` }],
      ['register password', 'POST', '/api/user', { ...fresh, password: `long pass${value}word` }],
      ['PATCH email', 'PATCH', `/api/user/${me.id}`, { email: `y${value}@example.com` }],
      [
        'PATCH current_password',
        'PATCH',
        `/api/user/${me.id}`,
        { current_password: `p${value}`, password: 'new password 1' },
      ],
    ] as const
  }

  it.each(controls)(
    'answers %s in any string field with 400 VALIDATION_FAILED naming the field',
    async (_name, value) => {
      for (const [field, method, url, payload] of requests(value)) {
        const res = await api.app.inject({ method, url, headers: bearer(me.token), payload })
        const { status, code, body } = errorOf(res)
        expect({ field, status, code }).toEqual({ field, status: 400, code: 'VALIDATION_FAILED' })
        expect(body.errors).toContainEqual(expect.objectContaining({ rule: 'controlCharacters' }))
      }
    },
  )
  // The guard walks the body itself: a client may nest it deeper than the call stack allows.
  it('answers a field nested 7,000 deep (within the body limit) with 400, never a 500', async () => {
    const payload = `{"username":${'['.repeat(7_000)}${']'.repeat(7_000)},"password":"whatever1"}`
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    expect(res.statusCode).toBe(400)
  })
})
