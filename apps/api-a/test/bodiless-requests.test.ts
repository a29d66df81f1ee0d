import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, outcome, signUp, startApp, type TestApp } from './support.js'

/** What HTTP clients send on requests without a body: often `Content-Type: application/json` all the same. */
const json = { 'content-type': 'application/json' }

describe.each(testDatabaseKinds())('requests without a body on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'bodiless')
  })
  afterAll(() => t?.close())

  const newProduct = async (account: Account) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: bearer(account.access),
        payload: { title: 'Lamp', amount: 3 },
      })
    ).json().data.id as number

  it('logs out with Content-Type: application/json and no body (200, the token is revoked)', async () => {
    const account = await signUp(t.app)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...json, ...bearer(account.access) },
    })
    expect(res.statusCode).toBe(200)
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/users/${account.id}`,
      headers: bearer(account.access),
    })
    expect(outcome(after)).toEqual({ status: 401, code: 'INVALID_TOKEN' })
  })

  it('deletes a product with Content-Type: application/json and no body', async () => {
    const account = await signUp(t.app)
    const id = await newProduct(account)
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/products/${id}`,
      headers: { ...json, ...bearer(account.access) },
    })
    expect(res.statusCode).toBe(200)
  })

  it.each([
    ['with Content-Type: application/json', json],
    ['without Content-Type', {}],
  ])('answers a bodiless account DELETE %s with 400 naming current_password', async (_name, headers) => {
    const account = await signUp(t.app)
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${account.id}`,
      headers: { ...headers, ...bearer(account.access) },
    })
    expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'current_password' })])
  })

  it('names the missing fields of a login sent as JSON with no body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: json })
    expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(
      res
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'password'])
  })

  it('still refuses a JSON body of whitespace only as malformed (400 BAD_REQUEST)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: json, payload: ' ' })
    expect(outcome(res)).toEqual({ status: 400, code: 'BAD_REQUEST' })
  })
})
