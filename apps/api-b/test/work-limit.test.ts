import { describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { createWorkLimit } from '../src/auth/work-limit.js'
import { settingsFromEnv } from '../src/config/settings.js'
import { openDatabase } from '../src/db/client.js'
import { newUser, TEST_SECRET, testSettings } from './support.js'

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

describe("createWorkLimit (this app's bound on concurrent scrypt runs)", () => {
  it('answers 503 UNAVAILABLE when too many tasks wait, and recovers', async () => {
    const limit = createWorkLimit(1, 2)
    const slow = Array.from({ length: 3 }, () => limit.run(tick))
    await expect(limit.run(tick)).rejects.toMatchObject({ statusCode: 503, code: 'UNAVAILABLE' })
    await Promise.all(slow)
    await expect(limit.run(async () => 'ok')).resolves.toBe('ok')
  })
})

describe('PASSWORD_QUEUE_MAX (how many password checks may wait for scrypt)', () => {
  const burst = async (passwordQueueMax: number) => {
    const database = await openDatabase({ kind: 'pglite' })
    await database.migrate()
    const app = await buildApp({ database, settings: testSettings({ scryptCost: 16_384, passwordQueueMax }) })
    try {
      return await Promise.all(
        Array.from({ length: 8 }, () => app.inject({ method: 'POST', url: '/api/user', payload: newUser('queue') })),
      )
    } finally {
      await app.close()
      await database.close()
    }
  }

  it('answers the registrations beyond the queue 503 with Retry-After, and serves the others', async () => {
    const answers = await burst(1)
    const refused = answers.filter((answer) => answer.statusCode === 503)
    expect(answers.filter((answer) => answer.statusCode === 201).length).toBeGreaterThanOrEqual(2)
    expect(refused.length).toBeGreaterThan(0)
    for (const answer of refused) {
      expect(answer.headers['retry-after']).toBe('1')
      expect(answer.json()).toMatchObject({ code: 'UNAVAILABLE' })
    }
  })

  it('serves the whole burst when the queue is long enough', async () => {
    const answers = await burst(16)
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(201))
  })

  it('is read from the environment and refuses 0', () => {
    expect(settingsFromEnv({ SECRET: TEST_SECRET, PASSWORD_QUEUE_MAX: '500' }).passwordQueueMax).toBe(500)
    expect(() => settingsFromEnv({ SECRET: TEST_SECRET, PASSWORD_QUEUE_MAX: '0' })).toThrow(/passwordQueueMax/)
  })
})
