import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { rawRequest } from './raw-http.js'
import { startApp, type TestApp } from './support.js'

/** Headers of a JSON login announcing 100 bytes of body, and the first five of them. */
const halfALogin =
  'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":'

describe('a client that does not finish its request', () => {
  let t: TestApp
  let app: FastifyInstance
  let port: number
  const lines: Record<string, unknown>[] = []
  beforeAll(async () => {
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) }
    t = await startApp('pglite', 'aborted_requests', { requestTimeoutMs: 1000 }, { level: 'info', stream })
    app = t.app
    await app.listen({ port: 0, host: '127.0.0.1' })
    port = (app.server.address() as AddressInfo).port
  })
  beforeEach(() => {
    lines.length = 0
  })
  afterAll(() => t?.close())

  /** Waits until the error handler has logged the request (a line with its id and an error code). */
  const handled = async () => {
    const done = () => lines.some((line) => line.reqId !== undefined && line.code !== undefined)
    for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    return lines
  }

  it('is logged at info, not as an UNAVAILABLE error, when it hangs up mid-body', async () => {
    await rawRequest(port, halfALogin, { hangUp: 50 })
    const log = await handled()
    expect(log).toContainEqual(expect.objectContaining({ level: 30, reqId: expect.any(String), code: 'BAD_REQUEST' }))
    expect(log.filter((line) => Number(line.level) >= 40)).toEqual([])
    expect(log.filter((line) => line.code === 'UNAVAILABLE')).toEqual([])
  })

  it('is logged at info, not as an UNAVAILABLE error, when its body stalls past the request timeout', async () => {
    const res = await rawRequest(port, halfALogin)
    expect(res.status).toBe(408)
    const log = await handled()
    expect(log).toContainEqual(expect.objectContaining({ level: 30, code: 'REQUEST_TIMEOUT' }))
    expect(log).toContainEqual(expect.objectContaining({ level: 30, reqId: expect.any(String), code: 'BAD_REQUEST' }))
    expect(log.filter((line) => Number(line.level) >= 40)).toEqual([])
    expect(log.filter((line) => line.code === 'UNAVAILABLE')).toEqual([])
  })
})
