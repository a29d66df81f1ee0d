import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { type DatabaseHandle, openDatabase } from '../src/db/client.js'
import { testSettings } from './support.js'

/**
 * Sends the headers of a JSON POST and then one byte of its body every `everyMs`, never finishing; resolves
 * with what the server wrote and how long until it closed the socket.
 */
function trickle(port: number, everyMs: number): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    let timer: NodeJS.Timeout | undefined
    socket.on('connect', () => {
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      )
      timer = setInterval(() => socket.writable && socket.write(' '), everyMs)
    })
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ answer, closedAfterMs: Date.now() - started })
    })
    setTimeout(() => {
      socket.destroy()
      reject(new Error(`socket still open after 15 s; got: ${answer}`))
    }, 15_000)
  })
}

describe('a request that trickles its body in', () => {
  let database: DatabaseHandle
  let app: FastifyInstance
  let port: number
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' })
    await database.migrate()
    // The handler timeout is shorter than the request timeout on purpose: the body's reception is not handling.
    app = await buildApp({ database, settings: testSettings({ requestTimeoutMs: 1500, handlerTimeoutMs: 500 }) })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    port = typeof address === 'object' && address ? address.port : 0
  })
  afterAll(async () => {
    await app?.close()
    await database?.close()
  })

  it('gets 408 and its socket closed within requestTimeout (plus Node’s one-second check), not a 503', async () => {
    const { answer, closedAfterMs } = await trickle(port, 100)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(answer).not.toContain('503')
    expect(closedAfterMs).toBeGreaterThanOrEqual(1400)
    expect(closedAfterMs).toBeLessThan(1500 + 1000 + 1000)
  })

  it('leaves complete requests alone', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'nobody', password: 'whatever1' }),
    })
    expect(res.status).toBe(401)
  })
})
