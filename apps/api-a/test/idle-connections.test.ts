import { connect, type Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type TestApp } from './support.js'

const IDLE_MS = 300
const health = 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A raw connection: what the server wrote so far, and when it closed the connection. */
function open(port: number) {
  const started = Date.now()
  const socket: Socket = connect(port, '127.0.0.1')
  const seen = { text: '', closedAfterMs: -1 }
  socket.on('data', (chunk) => {
    seen.text += chunk.toString('latin1')
  })
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      seen.closedAfterMs = Date.now() - started
      resolve()
    }),
  )
  const connected = new Promise<void>((resolve) => socket.on('connect', () => resolve()))
  return { socket, seen, closed, connected }
}

/** Waits until `count` complete answers have arrived on the connection (or 3 s have passed). */
async function answers(seen: { text: string }, count: number) {
  for (let waited = 0; waited < 3000; waited += 20) {
    if ((seen.text.match(/HTTP\/1\.1 200 /g) ?? []).length >= count && seen.text.endsWith('}')) return
    await sleep(20)
  }
}

describe('a connection that sends nothing', () => {
  let t: TestApp
  let app: FastifyInstance
  let port: number
  beforeAll(async () => {
    t = await startApp('pglite', 'idle_connections')
    // The request timeout is far longer: only the idle bound can close the silent connection in time.
    app = await t.rebuild({ idleConnectionTimeoutMs: IDLE_MS, requestTimeoutMs: 10_000 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    port = typeof address === 'object' && address ? address.port : 0
  })
  afterAll(() => t?.close())

  it('is closed by the server within the bound, without an answer', async () => {
    const connection = open(port)
    await connection.closed
    expect(connection.seen.text).toBe('')
    expect(connection.seen.closedAfterMs).toBeGreaterThanOrEqual(IDLE_MS - 50)
    expect(connection.seen.closedAfterMs).toBeLessThan(IDLE_MS + 1000)
  })

  it('is closed however many are open at once', async () => {
    const connections = Array.from({ length: 50 }, () => open(port))
    await Promise.all(connections.map((connection) => connection.closed))
    for (const { seen } of connections) expect(seen.closedAfterMs).toBeLessThan(IDLE_MS + 1500)
  })

  it('is not what a slow request is: one arriving a few bytes at a time, for longer than the bound, is answered', async () => {
    const connection = open(port)
    await connection.connected
    for (let i = 0; i < health.length; i += 6) {
      connection.socket.write(health.slice(i, i + 6))
      await sleep(60)
    }
    await answers(connection.seen, 1)
    expect(connection.seen.text).toMatch(/^HTTP\/1\.1 200 /)
    connection.socket.destroy()
  })

  it('keeps a kept-alive connection open between requests longer than the bound, and reuses it', async () => {
    const connection = open(port)
    await connection.connected
    connection.socket.write(health)
    await answers(connection.seen, 1)
    await sleep(IDLE_MS * 2)
    expect(connection.seen.closedAfterMs).toBe(-1)
    connection.socket.write(health)
    await answers(connection.seen, 2)
    expect(connection.seen.text.match(/HTTP\/1\.1 200 /g)).toHaveLength(2)
    connection.socket.destroy()
  })
})
