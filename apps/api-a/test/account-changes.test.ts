import { testDatabaseKinds } from '@weft/tooling/test-db'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, outcome, signUp, startApp, type TestApp } from './support.js'

const BUDGET = 3
let address = 0
/** An address no other test uses, so each test starts with a full budget for it. */
const newAddress = () => `10.42.0.${++address}`

describe.each(testDatabaseKinds())('PATCH /api/users/:id is rate limited like registration on %s', (kind) => {
  let t: TestApp
  let limited: FastifyInstance
  let taken: Account
  beforeAll(async () => {
    t = await startApp(kind, 'account_changes')
    taken = await signUp(t.app, 'taken')
    // Accounts are made on the generous app; their changes go to one with a budget of three.
    limited = await t.rebuild({ authRateLimit: BUDGET, authRateWindowMs: 60_000 })
  })
  afterAll(() => t?.close())

  const rename = (account: Account, username: string, remoteAddress: string) =>
    limited.inject({
      method: 'PATCH',
      url: `/api/users/${account.id}`,
      headers: bearer(account.access),
      payload: { username },
      remoteAddress,
    })
  const takenName = async () =>
    (await t.app.inject({ url: `/api/users/${taken.id}`, headers: bearer(taken.access) })).json().data.username

  it('counts taken and free usernames alike, says what is left, and answers 429 over budget, not 409', async () => {
    const me = await signUp(t.app, 'prober')
    const from = newAddress()
    const answers = [
      await rename(me, await takenName(), from),
      await rename(me, `free${Date.now()}`, from),
      await rename(me, await takenName(), from),
      await rename(me, await takenName(), from),
    ]
    expect(answers.map((res) => res.statusCode)).toEqual([409, 200, 409, 429])
    expect(answers.map((res) => res.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0'])
    for (const res of answers) expect(res.headers['x-ratelimit-limit']).toBe(String(BUDGET))
    const over = answers[3]
    expect(outcome(over!)).toEqual({ status: 429, code: 'RATE_LIMITED' })
    expect(over?.json().message).toMatch(/^too many requests; retry in \d+ s$/)
    expect(Number(over?.headers['retry-after'])).toBeGreaterThan(0)
    expect(over?.json().retry_after).toBe(Number(over?.headers['retry-after']))
    expect(Number(over?.headers['x-ratelimit-reset'])).toBeGreaterThan(0)
  })

  it('limits one account whatever address it comes from', async () => {
    const me = await signUp(t.app, 'roamer')
    const statuses: number[] = []
    for (let i = 0; i <= BUDGET; i++) statuses.push((await rename(me, await takenName(), newAddress())).statusCode)
    expect(statuses).toEqual([409, 409, 409, 429])
  })

  it('limits one address whatever account it uses', async () => {
    const from = newAddress()
    const statuses: number[] = []
    for (let i = 0; i <= BUDGET; i++) {
      statuses.push((await rename(await signUp(t.app, 'sybil'), await takenName(), from)).statusCode)
    }
    expect(statuses).toEqual([409, 409, 409, 429])
  })

  it('counts an email change too', async () => {
    const me = await signUp(t.app, 'mover')
    const from = newAddress()
    const change = () =>
      limited.inject({
        method: 'PATCH',
        url: `/api/users/${me.id}`,
        headers: bearer(me.access),
        payload: { email: taken.email, current_password: me.password },
        remoteAddress: from,
      })
    const statuses: number[] = []
    for (let i = 0; i <= BUDGET; i++) statuses.push((await change()).statusCode)
    expect(statuses).toEqual([409, 409, 409, 429])
  })

  it('documents the limit and its headers on the answers that come after the count', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json()
    const patch = doc.paths['/api/users/{id}'].patch
    expect(patch.description).toMatch(/rate limited like registration/i)
    for (const status of ['200', '409', '429']) {
      expect(Object.keys(patch.responses[status].headers ?? {}), status).toEqual(
        expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']),
      )
    }
    expect(Object.keys(patch.responses['401'].headers ?? {})).not.toContain('x-ratelimit-limit')
  })
})
