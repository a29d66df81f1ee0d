import { testDatabaseKinds } from '@weft/tooling/test-db'
import { describe, expect, it } from 'vitest'
import { bearer, errorOf, registeredUser, useTestApi } from './support.js'

/** What HTTP clients send on requests without a body: often `Content-Type: application/json` all the same. */
const json = { 'content-type': 'application/json' }

describe.each(testDatabaseKinds())('requests without a body on %s', (kind) => {
  const api = useTestApi(kind, 'bodiless')

  it.each([
    ['with Content-Type: application/json', json],
    ['without Content-Type', {}],
  ])('answers a bodiless account DELETE %s with 400 naming current_password', async (_name, headers) => {
    const me = await registeredUser(api.app)
    const res = await api.app.inject({
      method: 'DELETE',
      url: `/api/user/${me.id}`,
      headers: { ...headers, ...bearer(me.token) },
    })
    const { status, code, body } = errorOf(res)
    expect({ status, code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(body.errors).toEqual([expect.objectContaining({ field: 'current_password' })])
  })

  it('names the missing fields of a login sent as JSON with no body', async () => {
    const res = await api.app.inject({ method: 'POST', url: '/api/auth/login', headers: json })
    const { status, code, body } = errorOf(res)
    expect({ status, code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['password', 'username'])
  })

  it('still refuses a JSON body of whitespace only as malformed (400 BAD_REQUEST)', async () => {
    const res = await api.app.inject({ method: 'POST', url: '/api/auth/login', headers: json, payload: ' ' })
    expect(errorOf(res)).toMatchObject({ status: 400, code: 'BAD_REQUEST' })
  })
})
