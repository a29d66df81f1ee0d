import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { handle } from './index.js'

/** Sends one raw request line over loopback, so the target reaches the app exactly as written. */
function rawGet(port: number, target: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    socket.on('connect', () => socket.write(`GET ${target} HTTP/1.1\r\nhost: app.example\r\nconnection: close\r\n\r\n`))
    socket.on('data', (chunk) => (text += chunk))
    socket.on('end', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n')
      resolve({ status: Number(head.split(' ')[1]), head: head.toLowerCase(), body })
    })
    socket.on('error', reject)
  })
}

describe('an absolute-form request line', () => {
  let app: Awaited<ReturnType<typeof makeApp>>
  let port = 0
  beforeAll(async () => {
    app = await makeApp()
    app.get(
      '/api/products',
      handle((c) => c.json({ path: c.path(), originalURL: c.originalURL() })),
    )
    app.get(
      '/api/again',
      handle((c) => c.redirect(c.originalURL())),
    )
    app.get(
      '/api/restarted',
      handle((c) => (c.locals('again') ? c.sendString('restarted') : c.locals('again', true) && c.restartRouting())),
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    port = (app.server.address() as AddressInfo).port
  })
  afterAll(() => app.close())

  it.each([
    ['http://evil.example/api/products?page=1&limit=1'],
    ['HTTPS://user@evil.example:8443/api/products?page=1&limit=1'],
  ])('gives path() and originalURL() without the client-chosen host (%s)', async (target) => {
    const { status, body } = await rawGet(port, target)
    expect(status).toBe(200)
    expect(JSON.parse(body)).toEqual({ path: '/api/products', originalURL: '/api/products?page=1&limit=1' })
  })

  it('a redirect to originalURL() stays on the app origin', async () => {
    const { status, head } = await rawGet(port, 'http://evil.example/api/again?x=1')
    expect(status).toBe(302)
    expect(head).toContain('\r\nlocation: /api/again?x=1\r\n')
  })

  it('restartRouting() routes the path of the target, not its host', async () => {
    const { status, body } = await rawGet(port, 'http://evil.example/api/restarted?x=1')
    expect(status).toBe(200)
    expect(body).toBe('restarted')
  })

  it('an origin-form target is returned as received', async () => {
    const { body } = await rawGet(port, '/api/products?page=1')
    expect(JSON.parse(body)).toEqual({ path: '/api/products', originalURL: '/api/products?page=1' })
  })

  it('through app.inject with an absolute URL', async () => {
    const res = await app.inject({ url: 'http://evil.example/api/products?page=1' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ path: '/api/products', originalURL: '/api/products?page=1' })
  })
})
