import { testDatabaseKinds } from '@weft/tooling/test-db'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, login, outcome, signUp, startApp, type TestApp } from './support.js'

describe.each(testDatabaseKinds())('account changes a stolen access token cannot make on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'accounts')
  })
  afterAll(() => t?.close())

  const patch = (account: Account, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/users/${account.id}`, headers: bearer(account.access), payload })
  const remove = (account: Account, payload?: object) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/users/${account.id}`,
      headers: bearer(account.access),
      ...(payload ? { payload } : {}),
    })

  it.each([
    ['without current_password', {}, 'matches'],
    ['with a wrong current_password', { current_password: 'not the password' }, 'matches'],
  ])('refuses to change the login email %s (400, the email stays)', async (_name, proof, rule) => {
    const account = await signUp(t.app)
    const res = await patch(account, { email: `new-${account.email}`, ...proof })
    expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'current_password', rule })])
    await expect(login(t.app, account.email, account.password)).resolves.toBeDefined()
  })

  it('changes the login email with the current password', async () => {
    const account = await signUp(t.app)
    const email = `new-${account.email}`
    const res = await patch(account, { email, current_password: account.password })
    expect(res.statusCode).toBe(200)
    await expect(login(t.app, email, account.password)).resolves.toBeDefined()
  })

  it('still changes the username with the access token alone', async () => {
    const account = await signUp(t.app)
    expect((await patch(account, { username: `renamed${account.id}` })).statusCode).toBe(200)
  })

  it.each([
    // No content at all is no media type to refuse: the answer names the missing field.
    ['without a body', undefined, 400, 'VALIDATION_FAILED'],
    ['without current_password', {}, 400, 'VALIDATION_FAILED'],
    ['with a wrong current_password', { current_password: 'not the password' }, 400, 'VALIDATION_FAILED'],
  ])('refuses to delete the account %s (%i %s, the account stays)', async (_name, payload, status, code) => {
    const account = await signUp(t.app)
    const res = await remove(account, payload)
    expect(res.statusCode).toBe(status)
    expect(res.json().code).toBe(code)
    await expect(login(t.app, account.email, account.password)).resolves.toBeDefined()
  })

  it('deletes the account with the current password', async () => {
    const account = await signUp(t.app)
    expect((await remove(account, { current_password: account.password })).statusCode).toBe(200)
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.email, password: account.password },
    })
    expect(outcome(again)).toEqual({ status: 401, code: 'INVALID_CREDENTIALS' })
  })
})

describe.each(testDatabaseKinds())('the password-check budget on %s', (kind) => {
  let t: TestApp
  /** The app under test (5 password checks per IP and per account); users sign up through `t.app`. */
  let strict: FastifyInstance
  beforeAll(async () => {
    t = await startApp(kind, 'oracle')
    strict = await t.rebuild({ authRateLimit: 5 })
  })
  afterAll(() => t?.close())

  const guess = (account: Account, currentPassword: string, remoteAddress = '10.1.0.1') =>
    strict.inject({
      method: 'PATCH',
      url: `/api/users/${account.id}`,
      remoteAddress,
      headers: bearer(account.access),
      payload: { password: 'attacker chosen 1', current_password: currentPassword },
    })
  const loginFrom = (email: string, password: string, remoteAddress: string) =>
    strict.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password } })

  it('throttles current_password guesses on PATCH: 429 with Retry-After, and the password stays', async () => {
    const account = await signUp(t.app)
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await guess(account, `guess ${i}`, `10.1.1.${i}`)).statusCode)
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429])
    const right = await guess(account, account.password, '10.1.1.99')
    expect(outcome(right)).toEqual({ status: 429, code: 'RATE_LIMITED' })
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0)
    expect((await loginFrom(account.email, account.password, '10.1.1.100')).statusCode).toBe(429)
  })

  it('shares the budget with login: guesses on PATCH spend the account’s logins, other accounts keep theirs', async () => {
    const [victim, bystander] = [await signUp(t.app), await signUp(t.app)]
    for (let i = 0; i < 5; i++) await guess(victim, `guess ${i}`, `10.2.0.${i}`)
    expect(outcome(await loginFrom(victim.email, victim.password, '10.2.1.1'))).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
    })
    expect((await loginFrom(bystander.email, bystander.password, '10.2.1.1')).statusCode).toBe(200)
  })

  it('counts 16 parallel wrong guesses from one account: only the budget reaches scrypt', async () => {
    const account = await signUp(t.app)
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => guess(account, `parallel ${i}`, `10.3.0.${i}`)),
    )
    const statuses = answers.map((a) => a.statusCode).sort()
    // Two budgets of 5 guard a password change (account changes, then password checks); under load,
    // CI has seen 4 of 16 parallel guesses reach scrypt. What must hold is the bound: at most 5 are
    // checked, and every other guess is refused with 429.
    const checked = statuses.filter((s) => s === 400).length
    expect(checked, statuses.join(',')).toBeGreaterThanOrEqual(1)
    expect(checked, statuses.join(',')).toBeLessThanOrEqual(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(16 - checked)
  })

  it('limits one address across accounts too', async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => signUp(t.app)))
    const statuses = []
    for (const account of accounts) statuses.push((await guess(account, 'wrong', '10.4.0.1')).statusCode)
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429])
  })
})
