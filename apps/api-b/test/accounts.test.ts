import { testDatabaseKinds } from '@weft/tooling/test-db'
import type { FastifyInstance } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { bearer, errorOf, loginToken, registeredUser, testSettings, useTestApi } from './support.js'

type User = Awaited<ReturnType<typeof registeredUser>>

describe.each(testDatabaseKinds())('account changes a stolen access token cannot make on %s', (kind) => {
  const api = useTestApi(kind, 'accounts')
  const patch = (me: User, payload: object) =>
    api.app.inject({ method: 'PATCH', url: `/api/user/${me.id}`, headers: bearer(me.token), payload })
  const remove = (me: User, payload?: object) =>
    api.app.inject({
      method: 'DELETE',
      url: `/api/user/${me.id}`,
      headers: bearer(me.token),
      ...(payload ? { payload } : {}),
    })

  it.each([
    ['without current_password', {}, 'matches'],
    ['with a wrong current_password', { current_password: 'not the password' }, 'matches'],
  ])('refuses to change the username (the login name) %s', async (_name, proof, rule) => {
    const me = await registeredUser(api.app)
    const { status, code, body } = errorOf(await patch(me, { username: `new_${me.id}`, ...proof }))
    expect({ status, code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(body.errors).toEqual([expect.objectContaining({ field: 'current_password', rule })])
    await expect(loginToken(api.app, me.username, me.password)).resolves.toBeTypeOf('string')
  })

  it('changes the username with the current password', async () => {
    const me = await registeredUser(api.app)
    const res = await patch(me, { username: `new_${me.id}`, current_password: me.password })
    expect(res.statusCode).toBe(200)
    await expect(loginToken(api.app, `new_${me.id}`, me.password)).resolves.toBeTypeOf('string')
  })

  it.each([
    // No content at all is no media type to refuse: the answer names the missing field.
    ['without a body', undefined, 400],
    ['without current_password', {}, 400],
    ['with a wrong current_password', { current_password: 'not the password' }, 400],
  ])('refuses to delete the account %s', async (_name, payload, status) => {
    const me = await registeredUser(api.app)
    const res = await remove(me, payload)
    expect(res.statusCode).toBe(status)
    await expect(loginToken(api.app, me.username, me.password)).resolves.toBeTypeOf('string')
  })

  it('deletes the account with the current password', async () => {
    const me = await registeredUser(api.app)
    expect((await remove(me, { current_password: me.password })).statusCode).toBe(200)
    await expect(loginToken(api.app, me.username, me.password)).rejects.toThrow(/INVALID_CREDENTIALS/)
  })
})

describe('the password-check budget', () => {
  const api = useTestApi('pglite', 'oracle')
  /** 5 password checks per IP and per account; users sign up through `api.app`. */
  let strict: FastifyInstance
  beforeAll(async () => {
    strict = await buildApp({ database: api.database, settings: testSettings({ loginRateLimitMax: 5 }) })
    return () => strict.close()
  })
  const guess = (me: User, current: string, remoteAddress: string) =>
    strict.inject({
      method: 'PATCH',
      url: `/api/user/${me.id}`,
      remoteAddress,
      headers: bearer(me.token),
      payload: { password: 'attacker chosen 1', current_password: current },
    })
  const loginFrom = (username: string, password: string, remoteAddress: string) =>
    strict.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { username, password } })

  it('throttles current_password guesses on PATCH from any address: 429 with Retry-After', async () => {
    const me = await registeredUser(api.app)
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await guess(me, `guess ${i}`, `10.1.1.${i}`)).statusCode)
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429])
    const right = await guess(me, me.password, '10.1.1.99')
    expect(errorOf(right).code).toBe('RATE_LIMITED')
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('shares the budget with login, per account', async () => {
    const [victim, bystander] = [await registeredUser(api.app), await registeredUser(api.app)]
    for (let i = 0; i < 5; i++) await guess(victim, `guess ${i}`, `10.2.0.${i}`)
    expect(errorOf(await loginFrom(victim.username, victim.password, '10.2.1.1')).code).toBe('RATE_LIMITED')
    expect((await loginFrom(bystander.username, bystander.password, '10.2.1.1')).statusCode).toBe(200)
  })

  it('lets only the budget of 16 parallel wrong guesses reach scrypt', async () => {
    const me = await registeredUser(api.app)
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => guess(me, `parallel ${i}`, `10.3.0.${i}`)))
    const statuses = answers.map((a) => a.statusCode)
    expect(statuses.filter((s) => s === 400)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(11)
  })
})
