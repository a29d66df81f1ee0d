import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpUser } from '../src/apps/http.js'
import { serverEnv } from '../src/faults/scenarios.js'
import { loadMix } from '../src/load/mixes.js'
import { type LoadFigures, runLoad } from '../src/load/runner.js'
import { startThrowawayPostgres, type ThrowawayPostgres } from '../src/pg/throwaway.js'
import { sleep } from '../src/process/exec.js'
import { startServer } from '../src/process/server.js'
import { recordFigures } from '../src/report/figures.js'
import { holdRequest } from '../src/shutdown/in-flight.js'

/** How long the server may take to exit after SIGTERM. */
const exitBoundMs = 20_000
/** Requests held in flight across the SIGTERM. */
const held = 5

let pg: ThrowawayPostgres

beforeAll(async () => {
  pg = await startThrowawayPostgres()
})
afterAll(async () => {
  await pg?.destroy()
})

/**
 * SIGTERM while autocannon drives load and while a few writes are held half-sent: the held writes are
 * completed after the signal and must be answered 201, the load's answers must never be a 500, and the
 * process must exit 0 by itself.
 */
describe.each(['api-a', 'api-b'] as const)('%s receiving SIGTERM under load', (api) => {
  let statuses: PromiseSettledResult<number>[]
  let exit: number | string
  let exitMs: number
  let load: LoadFigures

  beforeAll(async () => {
    const url = await pg.createDatabase(`weft_shutdown_${api.replace('-', '_')}`)
    const server = await startServer(api, { env: serverEnv(url) })
    try {
      const mix = await loadMix(api, server.url)
      const writer = await httpUser(api, server.url, `held_${randomBytes(3).toString('hex')}`)
      const running = runLoad({ url: server.url, connections: 20, durationSeconds: 3, requests: mix.requests })
      await sleep(1_000)
      const requests = await Promise.all(
        Array.from({ length: held }, (_, i) => {
          const name = `held${i}_${randomBytes(3).toString('hex')}`
          return api === 'api-a'
            ? holdRequest(server.url, {
                method: 'POST',
                path: '/api/products',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
                body: JSON.stringify({ title: name, description: 'sent across a SIGTERM', amount: 5 }),
              })
            : holdRequest(server.url, {
                method: 'POST',
                path: '/api/user',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ username: name, email: `${name}@example.test`, password: 'held-password-1' }),
              })
        }),
      )
      await sleep(200)
      const signalled = Date.now()
      server.kill('SIGTERM')
      await sleep(300)
      statuses = await Promise.allSettled(requests.map((r) => r.finish()))
      exit = await Promise.race([server.exited, sleep(exitBoundMs).then(() => 'still running')])
      exitMs = Date.now() - signalled
      load = await running
    } finally {
      await server.stop(1_000)
    }
    recordFigures(['shutdown', api], {
      heldRequests: held,
      heldAnswered: statuses.map((s) => (s.status === 'fulfilled' ? s.value : String(s.reason))),
      exit,
      exitMs,
      loadDuringShutdown: load,
    })
  })

  it('answers the requests in flight at SIGTERM with 201', () => {
    expect(statuses.map((s) => (s.status === 'fulfilled' ? s.value : String(s.reason)))).toEqual(
      Array.from({ length: held }, () => 201),
    )
  })

  it('exits 0 by itself', () => {
    expect(exit).toBe(0)
  })

  it('never answers the load with a 500 while closing (503 at most)', () => {
    const bad = Object.keys(load.statuses).filter((s) => Number(s) >= 500 && s !== '503')
    expect(bad, JSON.stringify(load.statuses)).toEqual([])
  })
})
