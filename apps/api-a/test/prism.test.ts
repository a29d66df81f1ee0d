import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type PrismAnswer, type PrismProxy, type PrismRequest, startPrism } from '@weft/tooling/prism'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type TestApp } from './support.js'

/** Prism's findings about one request and its answer; `refused` when the document itself forbids the request. */
interface Checked {
  step: string
  status: number
  refused: boolean
  request: string[]
  response: string[]
}

/** One mistake: the request, and the status and code the catalogue answers it with. */
type Mistake = [name: string, path: string, request: PrismRequest, status: number, code: string]

const say = (answer: PrismAnswer, side: 'request' | 'response') =>
  answer[side].map((v) => `${v.location.join('.')}: ${v.message}`)

describe('the OpenAPI document, checked by Prism in front of the running app', () => {
  let t: TestApp
  let prism: PrismProxy
  const checked: Checked[] = []
  const state = { token: '', refresh: '', userId: 0, otherToken: '', otherId: 0, productId: 0 }

  /** Sends a request through Prism and records what Prism says about it and its answer. */
  async function send(step: string, path: string, request: PrismRequest = {}, refused = false) {
    const answer = await prism.send(path, request)
    const found = { request: say(answer, 'request'), response: say(answer, 'response') }
    checked.push({ step, status: answer.status, refused, ...found })
    return answer
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
  const codeOf = (answer: PrismAnswer) => ({ status: answer.status, code: (answer.body as { code?: string }).code })

  beforeAll(async () => {
    t = await startApp('pglite', 'prism', { authRateLimit: 10 })
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    const port = (t.app.server.address() as AddressInfo).port
    prism = await startPrism(t.app.swagger(), `http://127.0.0.1:${port}`)
  })
  afterAll(async () => {
    await prism?.close()
    await t?.close()
  })

  it('walks the README walkthrough', async () => {
    const ada = { username: 'ada', email: 'ada@example.com', password: 'correct horse' }
    const registered = await send('register', '/api/auth/register', { method: 'POST', body: ada })
    expect(registered.status).toBe(201)
    state.userId = (registered.body as { data: { id: number } }).data.id
    const login = await send('login', '/api/auth/login', {
      method: 'POST',
      body: { email: ada.email, password: ada.password },
    })
    expect(login.status).toBe(200)
    const tokens = (login.body as { data: { access_token: string; refresh_token: string } }).data
    state.token = tokens.access_token
    state.refresh = tokens.refresh_token
    const me = `/api/users/${state.userId}`
    expect((await send('read the account', me, { headers: bearer(state.token) })).status).toBe(200)
    const renamed = await send('rename', me, {
      method: 'PATCH',
      headers: bearer(state.token),
      body: { username: 'ada_l' },
    })
    expect(renamed.status).toBe(200)
    for (const [title, amount] of [
      ['Lamp', 3],
      ['Desk', 7],
    ] as const) {
      const product = { title, description: `A ${title.toLowerCase()}`, amount }
      const created = await send('create a product', '/api/products', {
        method: 'POST',
        headers: bearer(state.token),
        body: product,
      })
      expect(created.status).toBe(201)
      state.productId = (created.body as { data: { id: number } }).data.id
    }
    const page = await send('list', '/api/products?limit=1&sort=-amount')
    const cursor = (page.body as { meta: { pagination: { next_cursor: string } } }).meta.pagination.next_cursor
    expect(cursor).not.toBe('')
    expect((await send('next page', `/api/products?limit=1&sort=-amount&cursor=${cursor}`)).status).toBe(200)
    expect((await send('read a product', `/api/products/${state.productId}`)).status).toBe(200)
    const deleted = await send('delete a product', `/api/products/${state.productId}`, {
      method: 'DELETE',
      headers: bearer(state.token),
    })
    expect(deleted.body).toMatchObject({ data: null })
    const refreshed = await send('refresh', '/api/auth/refresh-token', {
      method: 'POST',
      headers: bearer(state.token),
      body: { refresh_token: state.refresh },
    })
    expect(refreshed.status).toBe(200)
    state.token = (refreshed.body as { data: { access_token: string } }).data.access_token
    const out = await send('logout', '/api/auth/logout', { method: 'POST', headers: bearer(state.token) })
    expect(out.body).toMatchObject({ data: null })
    expect(codeOf(await send('revoked token', me, { headers: bearer(state.token) }))).toEqual({
      status: 401,
      code: 'INVALID_TOKEN',
    })
  })

  it('sends the mistakes a valid request can still make', async () => {
    const bea = { username: 'bea', email: 'bea@example.com', password: 'another horse' }
    state.otherId = (
      (await send('register', '/api/auth/register', { method: 'POST', body: bea })).body as {
        data: { id: number }
      }
    ).data.id
    const login = await send('login', '/api/auth/login', {
      method: 'POST',
      body: { email: bea.email, password: bea.password },
    })
    state.otherToken = (login.body as { data: { access_token: string } }).data.access_token
    const mistakes: Mistake[] = [
      ['taken email', '/api/auth/register', { method: 'POST', body: { ...bea, username: 'bea2' } }, 409, 'CONFLICT'],
      // 40 characters, 80 bytes: valid for JSON Schema, refused by the byte rule the document states in words.
      [
        'password over 72 bytes',
        '/api/auth/register',
        { method: 'POST', body: { username: 'cyd', email: 'cyd@example.com', password: 'é'.repeat(40) } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'wrong password',
        '/api/auth/login',
        { method: 'POST', body: { email: bea.email, password: 'not it at all' } },
        401,
        'INVALID_CREDENTIALS',
      ],
      ['garbage token', `/api/users/${state.otherId}`, { headers: bearer('abc.def.ghi') }, 401, 'INVALID_TOKEN'],
      ['another account', `/api/users/${state.userId}`, { headers: bearer(state.otherToken) }, 403, 'FORBIDDEN'],
      ['no such product', '/api/products/999999', {}, 404, 'NOT_FOUND'],
      ['forged cursor', '/api/products?cursor=abc', {}, 400, 'INVALID_CURSOR'],
      [
        'password change without the current one',
        `/api/users/${state.otherId}`,
        { method: 'PATCH', headers: bearer(state.otherToken), body: { password: 'a new password' } },
        400,
        'VALIDATION_FAILED',
      ],
    ]
    for (const [name, path, request, status, code] of mistakes) {
      expect(codeOf(await send(name, path, request)), name).toEqual({ status, code })
    }
  })

  it('accepts the paging values the server clamps', async () => {
    const clamped = await send('clamped paging', '/api/products?limit=1000&page=0&offset=-5')
    expect(clamped.status).toBe(200)
    expect((clamped.body as { meta: { pagination: unknown } }).meta.pagination).toMatchObject({
      limit: 100,
      page: 1,
      offset: 0,
    })
    expect((await send('offset past the cap', '/api/products?offset=200000')).status).toBe(200)
    expect((await send('negative limit', '/api/products?limit=-1')).status).toBe(200)
    expect((await send('page past any page', '/api/products?page=99999999999999999999')).status).toBe(200)
  })

  it('refuses paging values that JSON Schema reads as integers but the document refuses in words', async () => {
    // Prism reads `1e3` as the number 1000 and an empty value as none; the parameters say "in decimal digits".
    const values: [name: string, path: string][] = [
      ['offset with an exponent', '/api/products?offset=1e3'],
      ['empty page', '/api/products?page='],
    ]
    for (const [name, path] of values) {
      expect(codeOf(await send(name, path)), name).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    }
  })

  it('sends requests the document itself refuses, and the server refuses them too', async () => {
    const mistakes: Mistake[] = [
      [
        'short password',
        '/api/auth/register',
        { method: 'POST', body: { username: 'dee', email: 'dee@example.com', password: 'short' } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'unknown field',
        '/api/auth/register',
        { method: 'POST', body: { username: 'dee', email: 'dee@example.com', password: 'long enough', role: 'admin' } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'text body',
        '/api/auth/register',
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'body over the limit',
        '/api/products',
        {
          method: 'POST',
          headers: bearer(state.otherToken),
          body: { title: 'Big', amount: 1, description: 'x'.repeat(20_000) },
        },
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      ['no token', `/api/users/${state.otherId}`, {}, 401, 'UNAUTHENTICATED'],
      ['id that is not a number', '/api/products/abc', {}, 400, 'INVALID_ID'],
      ['page that is a word', '/api/products?page=abc', {}, 400, 'VALIDATION_FAILED'],
      ['page that is a fraction', '/api/products?page=1.5', {}, 400, 'VALIDATION_FAILED'],
      [
        'delete without a body',
        `/api/users/${state.otherId}`,
        { method: 'DELETE', headers: bearer(state.otherToken) },
        400,
        'VALIDATION_FAILED',
      ],
    ]
    for (const [name, path, request, status, code] of mistakes) {
      expect(codeOf(await send(name, path, request, true)), name).toEqual({ status, code })
    }
  })

  it('answers 429 with Retry-After and the rate-limit headers once login is over its budget', async () => {
    let answer: PrismAnswer | undefined
    for (let i = 0; i < 12 && answer?.status !== 429; i++) {
      answer = await send('login over budget', '/api/auth/login', {
        method: 'POST',
        body: { email: 'bea@example.com', password: 'still not it' },
      })
    }
    expect(answer && codeOf(answer)).toEqual({ status: 429, code: 'RATE_LIMITED' })
  })

  it('answers 503 with Retry-After while the database is down', async () => {
    await t.database.close()
    expect(codeOf(await send('database down', '/api/health'))).toEqual({ status: 503, code: 'UNAVAILABLE' })
  })

  it('finds no answer that breaks the document, and a request breaks it exactly when the test says so', () => {
    expect(checked.length).toBeGreaterThan(30)
    expect(checked.filter((c) => c.response.length > 0)).toEqual([])
    expect(checked.filter((c) => c.refused !== c.request.length > 0)).toEqual([])
  })
})

describe('Prism in front of a server that breaks the document', () => {
  let t: TestApp
  let stub: Server
  let prism: PrismProxy
  /** Documented routes answered with bodies the document forbids. */
  const wrong: Record<string, [number, unknown]> = {
    '/api/products/1': [404, { status: 'error', code: 'NOT_FOUND', message: 'gone', data: { id: 1 } }],
    '/api/products/2': [404, { status: 'error', code: 'FORBIDDEN', message: 'gone', data: null }],
    '/api/auth/logout': [200, { status: 'success', message: 'logged out', data: {} }],
    '/api/users/3': [401, { status: 'error', code: 'INVALID_TOKEN', message: 'invalid token: expired', data: null }],
  }

  beforeAll(async () => {
    t = await startApp('pglite', 'prism_stub')
    await t.app.ready()
    stub = createServer((request, response) => {
      const [status, body] = wrong[request.url ?? ''] ?? [500, {}]
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
    const port = (stub.address() as AddressInfo).port
    prism = await startPrism(t.app.swagger(), `http://127.0.0.1:${port}`, { errors: true })
  })
  afterAll(async () => {
    await prism?.close()
    await new Promise((resolve) => stub?.close(resolve))
    await t?.close()
  })

  it.each([
    ['an error body with data', '/api/products/1', {}, 'response.body.data'],
    ['a code the status does not carry', '/api/products/2', {}, 'response.body.code'],
    [
      'a logout whose data is not null',
      '/api/auth/logout',
      { method: 'POST', headers: { authorization: 'Bearer x.y.z' } },
      'response.body.data',
    ],
    [
      'a 401 without WWW-Authenticate',
      '/api/users/3',
      { headers: { authorization: 'Bearer x.y.z' } },
      "response.header: Response header must have required property 'www-authenticate'",
    ],
  ])('flags %s', async (_name, path, request, finding) => {
    const answer = await prism.send(path, request as PrismRequest)
    expect(answer.status).toBe(500)
    expect(answer.response.map((v) => `${v.location.join('.')}: ${v.message}`).join('\n')).toContain(finding)
  })
})
