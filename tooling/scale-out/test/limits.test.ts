import { haproxy, redisServer } from '@weft/tooling/system-programs'
import { describeNeeding } from '@weft/tooling/tiers'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Answer, call, signUp } from '../src/client.js'
import { type Cluster, startCluster } from '../src/cluster.js'
import { mixedLoad } from '../src/load.js'
import { sleep } from '../src/process.js'
import { recordFigures } from '../src/report.js'

const LIMIT = 10
const WINDOW_MS = 8_000

/** Wrong-password logins for one email until a 429 or `max` attempts; the statuses and replicas seen. */
async function guessPasswords(base: string, email: string, max: number) {
  const answers = []
  for (let i = 0; i < max; i++) {
    const answer = await call(base, 'POST', '/api/auth/login', { body: { email, password: `wrong guess ${i}` } })
    answers.push(answer)
    if (answer.status === 429) break
  }
  return answers
}

// Rate limits live in Redis: one budget for the whole cluster, whichever replica answers.
describeNeeding([haproxy(), redisServer()], 'API A rate limits with three replicas and one Redis', () => {
  let cluster: Cluster
  beforeAll(async () => {
    cluster = await startCluster('limits', {
      env: { AUTH_RATE_LIMIT: String(LIMIT), AUTH_RATE_WINDOW_MS: String(WINDOW_MS) },
    })
  })
  afterAll(async () => {
    await cluster?.destroy()
  })

  it(`answers 429 to the ${LIMIT + 1}th login attempt whichever replica gets it`, async () => {
    const answers = await guessPasswords(cluster.url, 'nobody-1@example.com', LIMIT + 1)
    expect(answers.map((a) => a.status)).toEqual([...Array(LIMIT).fill(401), 429])
    expect(new Set(answers.map((a) => a.replica)).size).toBe(cluster.replicas.length)
    recordFigures('global login limit', {
      limit: LIMIT,
      attempts: answers.length,
      perReplica: Object.fromEntries(
        cluster.replicas.map((r) => [r.name, answers.filter((a) => a.replica === r.name).length]),
      ),
      limitedBy: answers.at(-1)?.replica,
    })
  })

  it(`answers 429 to the ${LIMIT + 1}th wrong current_password of one account whichever replica checks it`, async () => {
    await sleep(WINDOW_MS)
    const account = await signUp(cluster.url)
    const answers: Answer[] = []
    for (let i = 0; i <= LIMIT; i++) {
      const answer = await call(cluster.url, 'PATCH', `/api/users/${account.id}`, {
        token: account.access,
        body: { email: `moved-${i}@example.com`, current_password: `wrong guess ${i}` },
      })
      answers.push(answer)
      if (answer.status === 429) break
    }
    // The login above spent one attempt of the account's budget: the check budget is shared with login.
    expect(answers.map((a) => a.status)).toEqual([...Array(LIMIT - 1).fill(400), 429])
    expect(new Set(answers.map((a) => a.replica)).size).toBe(cluster.replicas.length)
    recordFigures('global password-check throttle', {
      limit: LIMIT,
      attempts: answers.length,
      perReplica: Object.fromEntries(
        cluster.replicas.map((r) => [r.name, answers.filter((a) => a.replica === r.name).length]),
      ),
    })
  })

  it('serves without a 5xx while Redis is down for 5 s, and limits again once it is back', async () => {
    await sleep(WINDOW_MS)
    const account = await signUp(cluster.url)
    let finish = () => {}
    const load = mixedLoad(
      cluster.url,
      account,
      3,
      new Promise<void>((resolve) => {
        finish = resolve
      }),
    )
    await sleep(1_000)
    await cluster.redis.stop()
    const during = await guessPasswords(cluster.url, 'nobody-2@example.com', 3)
    await sleep(5_000)
    await cluster.redis.start()
    await sleep(1_000)
    finish()
    const figures = await load
    const serverErrors = [...figures.failures, ...during].filter((f) => f.status >= 500 || f.status === 0)
    expect(serverErrors).toEqual([])
    expect(during.every((a) => a.status === 401 || a.status === 429)).toBe(true)

    await sleep(WINDOW_MS)
    const after = await guessPasswords(cluster.url, 'nobody-3@example.com', LIMIT + 1)
    expect(after.map((a) => a.status)).toEqual([...Array(LIMIT).fill(401), 429])
    recordFigures('Redis outage under load', {
      outageSeconds: 5,
      requests: figures.requests,
      failed: figures.failures.length,
      serverErrors: serverErrors.length,
      loginsDuringOutage: during.map((a) => a.status),
      limitAfterwards: after.length,
    })
  })
})
