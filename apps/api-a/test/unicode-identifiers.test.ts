import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, newUser, signUp, startApp, type TestApp } from './support.js'

/** `é` as one code point (NFC) and as `e` followed by a combining acute accent (NFD). */
const composed = '\u00e9'
const decomposed = 'e\u0301'

describe.each(testDatabaseKinds())('emails and usernames in Unicode on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'unicode')
  })
  afterAll(() => t?.close())

  const register = (body: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body })

  it('refuses an email that differs from a registered one only in how its accents are encoded: 409 CONFLICT', async () => {
    const tag = newUser('nfc').username
    const first = await register({ ...newUser('nfc'), email: `jos${composed}.${tag}@example.com` })
    expect(first.statusCode).toBe(201)
    const second = await register({ ...newUser('nfd'), email: `jos${decomposed}.${tag}@example.com` })
    expect(second.statusCode).toBe(409)
    expect(second.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'email is already taken',
      errors: [{ field: 'email', rule: 'unique', message: 'is already taken' }],
    })
  })

  it('stores and shows the email in its composed form', async () => {
    const tag = newUser('shown').username
    const res = await register({ ...newUser('shown'), email: `jos${decomposed}.${tag}@example.com` })
    expect(res.statusCode).toBe(201)
    expect(res.json().data.email).toBe(`jos${composed}.${tag}@example.com`)
  })

  it.each([
    ['composed', composed, decomposed],
    ['decomposed', decomposed, composed],
  ])('logs in with either form of an email registered %s', async (_form, registeredAs, loginAs) => {
    const user = { ...newUser('login'), email: `jos${registeredAs}.${newUser('x').username}@example.com` }
    expect((await register(user)).statusCode).toBe(201)
    for (const email of [user.email, user.email.replace(registeredAs, loginAs)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: user.password },
      })
      expect(res.statusCode).toBe(200)
    }
  })

  it('refuses a PATCH to another account’s email written in the other form: 409 CONFLICT', async () => {
    const tag = newUser('taken').username
    expect((await register({ ...newUser('taken'), email: `jos${composed}.${tag}@example.com` })).statusCode).toBe(201)
    const account = await signUp(t.app, 'patch')
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${account.id}`,
      headers: bearer(account.access),
      payload: { email: `jos${decomposed}.${tag}@example.com`, current_password: account.password },
    })
    expect(res.statusCode).toBe(409)
    expect(res.json().code).toBe('CONFLICT')
  })

  it.each([
    ['zero-width space', '\u200b'],
    ['zero-width joiner', '\u200d'],
    ['byte order mark', '\ufeff'],
    ['right-to-left override', '\u202e'],
  ])('refuses a %s in an email or a username with 400 VALIDATION_FAILED naming the field', async (_name, char) => {
    const user = newUser('cf')
    for (const [field, body] of [
      ['email', { ...user, email: `${char}${user.email}` }],
      ['username', { ...user, username: `ab${char}c` }],
    ] as const) {
      const res = await register(body)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        status: 'error',
        code: 'VALIDATION_FAILED',
        message: `${field} must not contain invisible characters such as zero-width spaces`,
        data: null,
        errors: [
          {
            field,
            rule: 'invisibleCharacters',
            message: 'must not contain invisible characters such as zero-width spaces',
          },
        ],
      })
    }
  })
})
