import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fromContext, paginate } from './index.js'

/** Every link a handler can build from `request.url`, for a request in page, offset or cursor mode. */
function linkApp() {
  const app = Fastify()
  app.get('/*', { onRequest: paginate() }, async (request) => {
    const page = fromContext(request)!
    const url = request.url
    page.setNextCursor({ id: 7 })
    return {
      links: page.links(url),
      nextPage: page.nextPageURL(url),
      previousPage: page.previousPageURL(url),
      nextCursor: page.nextCursorURL(url),
      withKeys: page.nextPageURLWithKeys(url, 'p', 'n'),
      // an absolute base the app chose itself is kept as it is
      chosen: page.nextPageURL('https://api.example/products?page=2'),
    }
  })
  return app
}

/** Sends one raw request line over loopback, so the target reaches the app exactly as written. */
function rawGet(port: number, target: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    socket.on('connect', () => socket.write(`GET ${target} HTTP/1.1\r\nhost: api.example\r\nconnection: close\r\n\r\n`))
    socket.on('data', (chunk) => (text += chunk))
    socket.on('end', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n')
      resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(body) })
    })
    socket.on('error', reject)
  })
}

describe('links built from the request URL stay on the app origin', () => {
  const app = linkApp()
  let port = 0
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    port = (app.server.address() as AddressInfo).port
  })
  afterAll(() => app.close())

  it.each([
    ['an absolute-form target', 'http://evil.example/api/products?page=2&limit=1', '/api/products'],
    [
      'an absolute-form target in capitals, with user and port',
      'HTTPS://u@evil.example:8443/api/products?page=2&limit=1',
      '/api/products',
    ],
    ['an absolute-form target of another scheme', 'ftp://evil.example/api/products?page=2&limit=1', '/api/products'],
    [
      'an absolute-form target whose path opens with //',
      'http://evil.example//evil2.example/p?page=2&limit=1',
      '/evil2.example/p',
    ],
    ['an absolute-form target without a path', 'http://evil.example?page=2&limit=1', '/'],
    ['an origin-form target opening with //', '//evil.example/p?page=2&limit=1', '/evil.example/p'],
    ['an origin-form target opening with /\\', '/\\evil.example/p?page=2&limit=1', '/evil.example/p'],
  ])('%s', async (_case, target, path) => {
    const { status, body } = await rawGet(port, target)
    expect(status).toBe(200)
    const token = (body.nextCursor as string).split('cursor=')[1]
    expect(body).toEqual({
      links: { next: `${path}?page=3&limit=1`, prev: `${path}?page=1&limit=1` },
      nextPage: `${path}?page=3&limit=1`,
      previousPage: `${path}?page=1&limit=1`,
      nextCursor: `${path}?limit=1&cursor=${token}`,
      withKeys: `${path}?page=2&limit=1&p=3&n=1`,
      chosen: 'https://api.example/products?page=3&limit=1',
    })
  })

  it('in offset mode too', async () => {
    const { body } = await rawGet(port, 'http://evil.example/api/products?offset=4&limit=2')
    expect(body).toMatchObject({
      links: { next: '/api/products?offset=6&limit=2', prev: '/api/products?offset=2&limit=2' },
    })
  })

  it('in cursor mode too', async () => {
    const { body } = await rawGet(port, 'http://evil.example/api/products?limit=2&q=x')
    const token = (body.nextCursor as string).split('cursor=')[1]
    expect(body).toMatchObject({ links: { next: `/api/products?limit=2&q=x&cursor=${token}`, prev: null } })
  })

  it('an ordinary target keeps its links as they were', async () => {
    const { body } = await rawGet(port, '/api/products?page=2&limit=1')
    expect(body).toMatchObject({
      nextPage: '/api/products?page=3&limit=1',
      previousPage: '/api/products?page=1&limit=1',
    })
  })

  it('through app.inject with an absolute URL', async () => {
    const res = await app.inject({ url: 'http://evil.example/api/products?page=2&limit=1' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ nextPage: '/api/products?page=3&limit=1' })
  })
})
