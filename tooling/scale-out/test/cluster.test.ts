import { haproxy, redisServer } from '@weft/tooling/system-programs'
import { describeNeeding } from '@weft/tooling/tiers'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Account, call, signUp } from '../src/client.js'
import { type Cluster, startCluster } from '../src/cluster.js'
import { mixedLoad } from '../src/load.js'
import { sleep } from '../src/process.js'
import { recordFigures } from '../src/report.js'

// API A as three replicas behind HAProxy: what one replica knows, the others must know too.
describeNeeding([haproxy(), redisServer()], 'API A behind HAProxy with three replicas', () => {
  let cluster: Cluster
  beforeAll(async () => {
    cluster = await startCluster('cluster', { env: { AUTH_RATE_LIMIT: '10000' } })
  })
  afterAll(async () => {
    await cluster?.destroy()
  })

  /**
   * Answers to the same request until every replica has given one. Round robin spreads consecutive
   * requests over the replicas, but on a busy machine HAProxy may take a replica out for a moment
   * (two slow health checks), so a few more requests may be needed; never more than `maxRequests`.
   */
  async function onEveryReplica(send: () => ReturnType<typeof call>, maxRequests = 30) {
    const answers = []
    const seen = new Set<string>()
    while (seen.size < cluster.replicas.length && answers.length < maxRequests) {
      const answer = await send()
      answers.push(answer)
      if (answer.replica !== '') seen.add(answer.replica)
    }
    expect(seen.size).toBe(cluster.replicas.length)
    return answers
  }

  it('refuses a token on every replica once one replica logged it out', async () => {
    const account = await signUp(cluster.url)
    const before = await onEveryReplica(() =>
      call(cluster.url, 'GET', `/api/users/${account.id}`, { token: account.access }),
    )
    expect(before.map((a) => a.status)).toEqual(before.map(() => 200))

    const logout = await call(cluster.url, 'POST', '/api/auth/logout', { token: account.access })
    expect(logout.status).toBeLessThan(300)
    const after = await onEveryReplica(() =>
      call(cluster.url, 'GET', `/api/users/${account.id}`, { token: account.access }),
    )
    expect(after.map((a) => a.status)).toEqual(after.map(() => 401))
  })

  it('lets exactly one of two simultaneous refreshes of one token win, 20 times', async () => {
    const outcomes: number[][] = []
    for (let round = 0; round < 20; round++) {
      const account: Account = await signUp(cluster.url)
      const refresh = () =>
        call(cluster.url, 'POST', '/api/auth/refresh-token', {
          token: account.access,
          body: { refresh_token: account.refresh },
        })
      const [first, second] = await Promise.all([refresh(), refresh()])
      outcomes.push([first.status, second.status].sort())
      // The loser presented a rotated token: reuse, so the whole session ends, the winner's new pair too.
      const winner = [first, second].find((answer) => answer.status === 200)
      const pair = winner?.body?.data as { access_token: string } | undefined
      if (pair) {
        const read = await call(cluster.url, 'GET', `/api/users/${account.id}`, { token: pair.access_token })
        outcomes.at(-1)?.push(read.status)
      }
    }
    expect(outcomes).toEqual(Array.from({ length: 20 }, () => [200, 401, 401]))
  })

  it('follows a cursor made by one replica on the others', async () => {
    const account = await signUp(cluster.url)
    for (let i = 0; i < 7; i++) {
      const created = await call(cluster.url, 'POST', '/api/products', {
        token: account.access,
        body: { title: `cursor ${i}`, amount: 3 },
      })
      expect(created.status).toBe(201)
    }
    const seen: number[] = []
    const replicas = new Set<string>()
    let path: string | undefined = '/api/products?sort=amount&limit=2'
    while (path) {
      const page = await call(cluster.url, 'GET', path)
      expect(page.status).toBe(200)
      replicas.add(page.replica)
      const body = page.body as { data: { id: number }[]; meta?: { pagination?: { links?: { next?: string | null } } } }
      seen.push(...body.data.map((p) => p.id))
      path = body.meta?.pagination?.links?.next ?? undefined
    }
    expect(replicas.size).toBe(cluster.replicas.length)
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('loses no request and no acknowledged write in a rolling restart under load', async () => {
    const account = await signUp(cluster.url)
    let finish = () => {}
    const until = new Promise<void>((resolve) => {
      finish = resolve
    })
    const load = mixedLoad(cluster.url, account, 4, until)
    const started = Date.now()
    const restarts = []
    await sleep(3_000)
    const drained: string[] = []
    for (const replica of cluster.replicas) {
      const t0 = Date.now()
      const stopped = replica.stop()
      // While it drains (1 s), the stopping replica tells health checks it is going away.
      await sleep(200)
      const health = await call(`http://${replica.address}`, 'GET', '/api/health')
      drained.push(`${replica.name}: ${health.status}`)
      expect(await stopped).toBe(0)
      await replica.start()
      restarts.push({ replica: replica.name, ms: Date.now() - t0 })
      await sleep(2_000)
    }
    await sleep(Math.max(0, 30_000 - (Date.now() - started)))
    finish()
    const figures = await load

    const missing = []
    for (const id of figures.acknowledged) {
      if ((await call(cluster.url, 'GET', `/api/products/${id}`)).status !== 200) missing.push(id)
    }
    recordFigures('rolling restart', {
      seconds: Math.round((Date.now() - started) / 1000),
      requests: figures.requests,
      failed: figures.failures.length,
      writesAcknowledged: figures.acknowledged.length,
      writesFound: figures.acknowledged.length - missing.length,
      perReplica: figures.perReplica,
      restarts,
    })
    expect(figures.failures).toEqual([])
    expect(missing).toEqual([])
    expect(drained).toEqual(cluster.replicas.map((r) => `${r.name}: 503`))
    expect(figures.acknowledged.length).toBeGreaterThan(0)
  })
})
