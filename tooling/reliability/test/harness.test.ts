import { spawn } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createProductA, registerA, startApiA } from '../src/apps/api-a.js'
import { documentedCodes, suiteSecret } from '../src/apps/client.js'
import { summarize } from '../src/faults/write-load.js'
import { checkApiEnvelope, checkFastifyError } from '../src/fuzz/checks.js'
import { prototypeGuard } from '../src/fuzz/guards.js'
import { cursorPayload, cursorSigner } from '../src/fuzz/inputs/signed-cursor.js'
import { gcDropCount, heldGrowth, rssAfterLastGc } from '../src/load/runner.js'
import { askHeldMemory, heldMemoryProbe } from '../src/process/server.js'
import { finalStatus } from '../src/shutdown/in-flight.js'
import { buildTestApp, testAppCursorSecret } from '../src/test-app/app.js'

const get = { method: 'GET' as const, url: '/', headers: {} }
const json = { 'content-type': 'application/json; charset=utf-8' }

describe('the envelope check', () => {
  const check = checkApiEnvelope(documentedCodes)

  it('accepts a documented error', () => {
    const body = JSON.stringify({ status: 'error', code: 'NOT_FOUND', message: 'no such product', data: null })
    expect(check(get, { statusCode: 404, headers: json, body })).toEqual([])
  })

  it('flags a 5xx, an undocumented code and a missing data', () => {
    const body = JSON.stringify({ status: 'error', code: 'OOPS', message: 'x' })
    expect(check(get, { statusCode: 500, headers: json, body })).toEqual([
      'status 500',
      'data is missing',
      'error data is not null',
      'code "OOPS" is not documented',
    ])
  })

  it('flags a 401 without WWW-Authenticate and a 503 without Retry-After', () => {
    const body = (code: string) => JSON.stringify({ status: 'error', code, message: 'x', data: null })
    expect(check(get, { statusCode: 401, headers: json, body: body('INVALID_TOKEN') })).toEqual([
      '401 without WWW-Authenticate: Bearer',
    ])
    expect(check(get, { statusCode: 503, headers: json, body: body('UNAVAILABLE') })).toContain('status 503')
  })

  it('flags a stack trace and a password hash in a body', () => {
    const body = JSON.stringify({
      status: 'success',
      message: 'x\n    at f (/app/src/x.ts:1:2)',
      data: { password_hash: 'h' },
    })
    expect(check(get, { statusCode: 200, headers: json, body })).toEqual([
      'body leaks internals (/(\\n|\\\\n)\\s+at [^\\n]+:\\d+:\\d+/)',
      'body leaks internals (/\\.ts:\\d+/)',
      'body carries password_hash',
    ])
  })
})

describe('the Fastify error check', () => {
  it('wants a WEFT_ or FST_ code on every error', () => {
    const body = JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'bad' })
    expect(checkFastifyError(get, { statusCode: 400, headers: json, body })).toEqual([
      'code undefined is not a stable WEFT_/FST_ code',
    ])
  })
})

describe('the prototype guard', () => {
  it('notices a key added to Object.prototype', () => {
    const intact = prototypeGuard()
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 1,
      configurable: true,
      enumerable: true,
      writable: true,
    })
    try {
      expect(intact()).toEqual(['Object.prototype changed: added ["polluted"]', '{} inherits an enumerable "polluted"'])
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted
    }
    expect(intact()).toEqual([])
  })
})

describe('the cursor signer', () => {
  it("reproduces the test app's real tokens", async () => {
    const app = await buildTestApp()
    const page = (await app.inject({ method: 'GET', url: '/list?limit=3' })).json() as { page: { next_cursor: string } }
    const token = page.page.next_cursor
    expect(cursorSigner(testAppCursorSecret, [{ field: 'id', order: 'asc' }])(cursorPayload(token))).toBe(token)
    await app.close()
  })

  it("reproduces API A's real tokens", async () => {
    const api = await startApiA()
    try {
      const owner = await registerA(api.app, 'signer')
      await createProductA(api.app, owner.accessToken, 'one')
      await createProductA(api.app, owner.accessToken, 'two')
      const first = (await api.app.inject({ method: 'GET', url: '/api/products?limit=1' })).json()
      const token: string = first.meta.pagination.next_cursor
      const key = createHmac('sha256', suiteSecret).update('weft-api-a cursor').digest()
      expect(token).not.toBe('')
      expect(cursorSigner(key, [{ field: 'id', order: 'asc' }])(cursorPayload(token))).toBe(token)
    } finally {
      await api.close()
    }
  })
})

describe('write accounting', () => {
  it('counts an acknowledged write missing from the database as lost', () => {
    const outcomes = [
      { startedAt: 0, endedAt: 10, status: 201, id: 1 },
      { startedAt: 5, endedAt: 15, status: 201, id: 2 },
      { startedAt: 6, endedAt: 20_016, status: 503 },
    ]
    const figures = summarize(outcomes, 0, 10, new Set([1]), 10_000)
    expect(figures).toMatchObject({ writes: 3, acknowledged: 2, lost: 1, statuses: { 201: 2, 503: 1 } })
    expect(figures.overBound).toEqual([{ sentAtMs: 6, latencyMs: 20_010, status: 503 }])
  })
})

describe("the load test's RSS figures", () => {
  const MiB = 2 ** 20
  const mib = (values: number[]) => values.map((v) => v * MiB)
  // the shape of a fresh-clone run on API B: a full cycle to 287 MiB, a major GC, then a short
  // cycle to 254 MiB before a second GC ended the warm-up
  const warmup = mib([180, 230, 287, 200, 254, 215, 212, 230])

  it('counts the major GCs of the warm-up', () => {
    expect(gcDropCount(warmup)).toBe(2)
    expect(gcDropCount(mib([100, 120, 118, 125]))).toBe(0)
  })

  it('reads RSS after the last major GC, the lowest reading since the drop', () => {
    expect(rssAfterLastGc(warmup)).toBe(212 * MiB)
    expect(rssAfterLastGc(mib([100, 120, 118, 125]))).toBeUndefined()
  })

  it('finds no growth in a measured cycle that climbs above every warm-up peak before its GC', () => {
    // a container run on API B: the warm-up's cycles peaked at 268 MiB, the measured run's at 297
    const reference = rssAfterLastGc(mib([190, 268, 214, 250, 209, 221])) as number
    const end = rssAfterLastGc(mib([221, 260, 297, 226, 219, 230])) as number
    expect((end - reference) / reference).toBeLessThan(0.1)
  })

  it('finds the growth of a leak, whose level after each GC rises', () => {
    const reference = rssAfterLastGc(mib([200, 260, 210, 262, 212])) as number
    const end = rssAfterLastGc(mib([215, 250, 290, 240, 300])) as number
    expect((end - reference) / reference).toBeGreaterThan(0.1)
  })
})

describe("the load test's held-memory probe", () => {
  // A process with the probe preloaded that, on 'keep' or 'drop', allocates 30 MiB of small objects
  // and keeps them or lets them go; what it holds is read after each step. (The probe does not keep a
  // process alive, so the script holds itself open.)
  const script = `
    setInterval(() => {}, 60_000)
    const kept = []
    process.on('message', (m) => {
      const batch = Array.from({ length: 300_000 }, (_, i) => ({ i, text: 'x'.repeat(64) + i }))
      if (m === 'keep') kept.push(batch)
      if (m === 'keep' || m === 'drop') process.send('done')
    })`

  it('sees memory a process keeps, and not the garbage it made', async () => {
    const child = spawn(process.execPath, ['--import', heldMemoryProbe, '-e', script], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    const step = (m: string) =>
      new Promise<void>((resolve) => {
        child.once('message', () => resolve())
        child.send(m)
      })
    try {
      const start = await askHeldMemory(child)
      await step('drop')
      const afterGarbage = await askHeldMemory(child)
      await step('keep')
      const afterKeeping = await askHeldMemory(child)
      expect(heldGrowth(start, afterGarbage)).toBeLessThan(0.1)
      expect(afterKeeping.heapUsed - afterGarbage.heapUsed).toBeGreaterThan(20 * 2 ** 20)
      expect(heldGrowth(afterGarbage, afterKeeping)).toBeGreaterThan(0.1)
    } finally {
      child.kill()
    }
  }, 60_000)
})

describe('the held request', () => {
  it('reads the final status after an interim 100 Continue', () => {
    expect(finalStatus('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}')).toBe(201)
    expect(finalStatus('HTTP/1.1 503 Service Unavailable\r\n\r\n')).toBe(503)
    expect(finalStatus('HTTP/1.1 100 Continue\r\n\r\n')).toBeUndefined()
  })
})
