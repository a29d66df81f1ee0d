import { type ContractWatch, watchContract } from '@weft/tooling/openapi-contract'
import { testDatabaseKinds } from '@weft/tooling/test-db'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { bearer, errorOf, registeredUser, testSettings, useTestApi } from './support.js'

const BUDGET = 3
let address = 0
/** An address no other test uses, so each test starts with a full budget for it. */
const newAddress = () => `10.43.0.${++address}`
type User = Awaited<ReturnType<typeof registeredUser>>

describe.each(testDatabaseKinds())('PATCH /api/user/:id is rate limited like registration on %s', (kind) => {
  const api = useTestApi(kind, 'account_changes')
  let limited: FastifyInstance
  let contract: ContractWatch
  let taken: User
  beforeAll(async () => {
    taken = await registeredUser(api.app, 'taken')
    // Accounts are made on the generous app; their changes go to one with a budget of three.
    limited = await buildApp({ database: api.database, settings: testSettings({ loginRateLimitMax: BUDGET }) })
    contract = watchContract(limited)
  })
  afterAll(async () => {
    await limited?.close()
    expect(contract.violations).toEqual([])
  })

  const change = (user: User, payload: Record<string, string>, remoteAddress: string) =>
    limited.inject({
      method: 'PATCH',
      url: `/api/user/${user.id}`,
      headers: bearer(user.token),
      payload,
      remoteAddress,
    })

  it('counts taken and free emails alike, says what is left, and answers 429 over budget, not 409', async () => {
    const me = await registeredUser(api.app, 'prober')
    const from = newAddress()
    const answers = [
      await change(me, { email: taken.email }, from),
      await change(me, { email: `free${Date.now()}@example.com` }, from),
      await change(me, { email: taken.email }, from),
      await change(me, { email: taken.email }, from),
    ]
    expect(answers.map((res) => res.statusCode)).toEqual([409, 200, 409, 429])
    expect(answers.map((res) => res.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0'])
    for (const res of answers) expect(res.headers['x-ratelimit-limit']).toBe(String(BUDGET))
    const over = answers[3]
    expect(errorOf(over!)).toMatchObject({ status: 429, code: 'RATE_LIMITED' })
    expect(over?.json().message).toMatch(/^too many requests; retry in \d+ s$/)
    expect(Number(over?.headers['retry-after'])).toBeGreaterThan(0)
    expect(over?.json().retry_after).toBe(Number(over?.headers['retry-after']))
    expect(Number(over?.headers['x-ratelimit-reset'])).toBeGreaterThan(0)
  })

  it('limits one account whatever address it comes from', async () => {
    const me = await registeredUser(api.app, 'roamer')
    const statuses: number[] = []
    for (let i = 0; i <= BUDGET; i++) statuses.push((await change(me, { email: taken.email }, newAddress())).statusCode)
    expect(statuses).toEqual([409, 409, 409, 429])
  })

  it('limits one address whatever account it uses', async () => {
    const from = newAddress()
    const statuses: number[] = []
    for (let i = 0; i <= BUDGET; i++) {
      statuses.push((await change(await registeredUser(api.app, 'sybil'), { email: taken.email }, from)).statusCode)
    }
    expect(statuses).toEqual([409, 409, 409, 429])
  })

  it('counts a username change too', async () => {
    const me = await registeredUser(api.app, 'mover')
    const from = newAddress()
    const statuses: number[] = []
    for (let i = 0; i <= BUDGET; i++) {
      statuses.push((await change(me, { username: taken.username, current_password: me.password }, from)).statusCode)
    }
    expect(statuses).toEqual([409, 409, 409, 429])
  })

  it('documents the limit and its headers on the answers that come after the count', async () => {
    const doc = (await limited.inject({ method: 'GET', url: '/docs/json' })).json()
    const patch = doc.paths['/api/user/{id}'].patch
    expect(patch.description).toMatch(/rate limited like registration/i)
    for (const status of ['200', '409', '429']) {
      expect(Object.keys(patch.responses[status].headers ?? {}), status).toEqual(
        expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']),
      )
    }
    expect(Object.keys(patch.responses['401'].headers ?? {})).not.toContain('x-ratelimit-limit')
  })
})
