import { testDatabaseKinds } from '@weft/tooling/test-db'
import { describe, expect, it } from 'vitest'
import { errorOf, newUser, useTestApi } from './support.js'

describe.each(testDatabaseKinds())('POST /api/user on %s', (kind) => {
  const api = useTestApi(kind, 'register')
  const register = (payload: unknown) =>
    api.app.inject({ method: 'POST', url: '/api/user', payload: payload as object })

  it('registers a user: 201, Location and the public user only', async () => {
    const body = newUser()
    const res = await register(body)
    expect(res.statusCode).toBe(201)
    const json = res.json()
    expect(json).toMatchObject({ status: 'success', message: 'user registered' })
    expect(Object.keys(json.data).sort()).toEqual(['created_at', 'email', 'id', 'updated_at', 'username'])
    expect(json.data).toMatchObject({ username: body.username, email: body.email })
    expect(Number.isInteger(json.data.id)).toBe(true)
    expect(new Date(json.data.created_at).toISOString()).toBe(json.data.created_at)
    expect(res.headers.location).toBe(`/api/user/${json.data.id}`)
    expect(res.body).not.toContain('scrypt')
    expect(res.body).not.toContain(body.password)
  })

  it('stores the email trimmed and lower-cased', async () => {
    const body = newUser()
    const res = await register({ ...body, email: `  ${body.email.toUpperCase()} ` })
    expect(res.statusCode).toBe(201)
    expect(res.json().data.email).toBe(body.email)
  })

  it('tolerates a trailing slash', async () => {
    const res = await api.app.inject({ method: 'POST', url: '/api/user/', payload: newUser() })
    expect(res.statusCode).toBe(201)
  })

  it('answers 409 for a username taken in any case', async () => {
    const first = newUser()
    await register(first)
    const res = await register({ ...newUser(), username: first.username.toUpperCase() })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'CONFLICT',
      message: 'username is already taken',
      data: null,
      errors: [{ field: 'username', rule: 'unique', message: 'is already taken' }],
    })
  })

  it('answers 409 for an email taken in any case', async () => {
    const first = newUser()
    await register(first)
    const res = await register({ ...newUser(), email: first.email.toUpperCase() })
    expect(errorOf(res)).toMatchObject({ status: 409, code: 'CONFLICT' })
    expect(res.json().errors).toEqual([{ field: 'email', rule: 'unique', message: 'is already taken' }])
  })

  it('lets only one of two simultaneous registrations of a name win', async () => {
    const body = newUser()
    const results = await Promise.all([register(body), register({ ...body, email: `x${body.email}` })])
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409])
  })

  it.each([
    ['a missing username', { username: undefined }, 'username', 'required'],
    ['a missing password', { password: undefined }, 'password', 'required'],
    ['a missing email', { email: undefined }, 'email', 'required'],
    ['a short username', { username: 'ab' }, 'username', 'minLength'],
    ['a username with spaces', { username: 'a b c' }, 'username', 'pattern'],
    ['a short password', { password: 'short' }, 'password', 'minLength'],
    ['a password over 72 characters', { password: 'p'.repeat(73) }, 'password', 'maxLength'],
    ['a password over 72 bytes', { password: 'é'.repeat(40) }, 'password', 'maxBytes'],
    ['an email without @', { email: 'nobody.example.com' }, 'email', 'pattern'],
    ['an email with a NUL byte', { email: 'no\u0000body@example.com' }, 'email', 'controlCharacters'],
    ['a number as username', { username: 12345 }, 'username', 'type'],
    ['an extra field', { role: 'admin' }, 'role', 'additionalProperties'],
  ])('answers 400 VALIDATION_FAILED for %s', async (_name, change, field, rule) => {
    const res = await register({ ...newUser(), ...change })
    expect(res.statusCode).toBe(400)
    const json = res.json()
    expect(json).toMatchObject({ status: 'error', code: 'VALIDATION_FAILED', data: null })
    expect(json.errors).toContainEqual(expect.objectContaining({ field, rule }))
  })

  it('answers 400 BAD_REQUEST for malformed JSON', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    })
    expect(errorOf(res)).toMatchObject({ status: 400, code: 'BAD_REQUEST' })
  })

  it('accepts application/json with a charset', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify(newUser()),
    })
    expect(res.statusCode).toBe(201)
  })

  it.each([
    ['an array', '[1, 2]'],
    ['a string', '"username"'],
  ])('answers 400 BAD_REQUEST for %s as body', async (_name, payload) => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    expect(errorOf(res)).toMatchObject({ status: 400, code: 'BAD_REQUEST' })
  })

  it.each([
    ['null', 'null'],
    ['a JSON string holding JSON', JSON.stringify(JSON.stringify({ username: 'x', email: 'x@example.com' }))],
  ])('answers %s as a body that is not an object: 400 BAD_REQUEST', async (_name, payload) => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { 'content-type': 'application/json' },
      payload,
    })
    expect(errorOf(res)).toMatchObject({ status: 400, code: 'BAD_REQUEST' })
  })

  it('answers 400 for a body that tries prototype pollution', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"admin": true}, "username": "x"}',
    })
    expect(errorOf(res)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
    expect(res.json().errors).toEqual([
      { field: '__proto__', rule: 'forbiddenKey', message: 'is not an accepted field name' },
    ])
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
  })

  it('answers 415 for a body that is not JSON', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { 'content-type': 'text/plain' },
      payload: 'username=x',
    })
    expect(errorOf(res)).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
  })

  it('answers 413 for a body over the limit', async () => {
    const res = await register({ ...newUser(), email: `${'a'.repeat(20_000)}@example.com` })
    expect(errorOf(res)).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' })
  })
})

describe.each(testDatabaseKinds())('POST /api/user with other body types on %s', (kind) => {
  const api = useTestApi(kind, 'register_types')

  it.each([
    ['a form', 'application/x-www-form-urlencoded', 'username=abc&password=longenough&email=a%40b.co'],
    ['XML', 'application/xml', '<user><username>abc</username></user>'],
    [
      'multipart',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nabc\r\n--x--\r\n',
    ],
    ['no Content-Type', '', 'username=abc'],
  ])('answers %s with 415', async (_name, contentType, payload) => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: contentType ? { 'content-type': contentType } : {},
      payload,
    })
    expect(res.json()).toMatchObject({ status: 'error', code: 'UNSUPPORTED_MEDIA_TYPE', data: null })
    expect(res.statusCode).toBe(415)
  })
})
