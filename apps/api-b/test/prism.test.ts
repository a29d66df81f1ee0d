import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type PrismAnswer, type PrismProxy, type PrismRequest, startPrism } from '@weft/tooling/prism'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestApi } from './support.js'

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
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const codeOf = (answer: PrismAnswer) => ({ status: answer.status, code: (answer.body as { code?: string }).code })
const dataOf = <T>(answer: PrismAnswer) => (answer.body as { data: T }).data

describe('the OpenAPI document, checked by Prism in front of the running app', () => {
  const api = useTestApi('pglite', 'prism', { loginRateLimitMax: 10 })
  let prism: PrismProxy
  const checked: Checked[] = []
  const state = { token: '', userId: 0, otherToken: '', otherId: 0 }

  /** Sends a request through Prism and records what Prism says about it and its answer. */
  async function send(step: string, path: string, request: PrismRequest = {}, refused = false) {
    const answer = await prism.send(path, request)
    const found = { request: say(answer, 'request'), response: say(answer, 'response') }
    checked.push({ step, status: answer.status, refused, ...found })
    return answer
  }

  beforeAll(async () => {
    await api.app.listen({ host: '127.0.0.1', port: 0 })
    const port = (api.app.server.address() as AddressInfo).port
    prism = await startPrism(api.app.swagger(), `http://127.0.0.1:${port}`)
  })
  afterAll(() => prism?.close())

  it('walks the README walkthrough', async () => {
    const ada = { username: 'ada', password: 'correct horse battery', email: 'Ada@Example.com' }
    const registered = await send('register', '/api/user', { method: 'POST', body: ada })
    expect(registered.status).toBe(201)
    state.userId = dataOf<{ id: number }>(registered).id
    const login = await send('login', '/api/auth/login', {
      method: 'POST',
      body: { username: 'ada', password: ada.password },
    })
    state.token = dataOf<{ access_token: string }>(login).access_token
    const me = `/api/user/${state.userId}`
    expect((await send('read the account', me, { headers: bearer(state.token) })).status).toBe(200)
    const patched = await send('change the email', me, {
      method: 'PATCH',
      headers: bearer(state.token),
      body: { email: 'ada@lovelace.dev' },
    })
    expect(dataOf<{ email: string }>(patched).email).toBe('ada@lovelace.dev')
    const other = await send('register another', '/api/user', {
      method: 'POST',
      body: { username: 'bea', password: 'another horse', email: 'bea@example.com' },
    })
    state.otherId = dataOf<{ id: number }>(other).id
    const otherLogin = await send('log the other in', '/api/auth/login', {
      method: 'POST',
      body: { username: 'bea', password: 'another horse' },
    })
    state.otherToken = dataOf<{ access_token: string }>(otherLogin).access_token
    expect(
      codeOf(await send('another account', `/api/user/${state.otherId}`, { headers: bearer(state.token) })),
    ).toEqual({ status: 403, code: 'FORBIDDEN' })
    const id = await send(
      'an id in the body',
      me,
      { method: 'PATCH', headers: bearer(state.token), body: { id: 5 } },
      true,
    )
    expect(codeOf(id)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    const wrong = await send('wrong password', '/api/auth/login', {
      method: 'POST',
      body: { username: 'ada', password: 'nope, not it' },
    })
    expect(codeOf(wrong)).toEqual({ status: 401, code: 'INVALID_CREDENTIALS' })
    const deleted = await send('delete the account', me, {
      method: 'DELETE',
      headers: bearer(state.token),
      body: { current_password: ada.password },
    })
    expect(deleted.body).toMatchObject({ data: null })
    expect(codeOf(await send('token of a deleted account', me, { headers: bearer(state.token) }))).toEqual({
      status: 401,
      code: 'INVALID_TOKEN',
    })
  })

  it('sends the mistakes a valid request can still make', async () => {
    const mine = `/api/user/${state.otherId}`
    const mistakes: Mistake[] = [
      [
        'taken username',
        '/api/user',
        { method: 'POST', body: { username: 'BEA', password: 'long enough', email: 'b2@example.com' } },
        409,
        'CONFLICT',
      ],
      // 40 characters, 80 bytes: valid for JSON Schema, refused by the byte rule the document states in words.
      [
        'password over 72 bytes',
        '/api/user',
        { method: 'POST', body: { username: 'cyd', password: 'é'.repeat(40), email: 'cyd@example.com' } },
        400,
        'VALIDATION_FAILED',
      ],
      ['garbage token', mine, { headers: bearer('abc.def.ghi') }, 401, 'INVALID_TOKEN'],
      [
        'password change without the current one',
        mine,
        { method: 'PATCH', headers: bearer(state.otherToken), body: { password: 'a new password' } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'nothing to change',
        mine,
        { method: 'PATCH', headers: bearer(state.otherToken), body: { current_password: 'another horse' } },
        400,
        'VALIDATION_FAILED',
      ],
    ]
    for (const [name, path, request, status, code] of mistakes) {
      expect(codeOf(await send(name, path, request)), name).toEqual({ status, code })
    }
  })

  it('sends requests the document itself refuses, and the server refuses them too', async () => {
    const mine = `/api/user/${state.otherId}`
    const mistakes: Mistake[] = [
      [
        'short password',
        '/api/user',
        { method: 'POST', body: { username: 'dee', password: 'short', email: 'dee@example.com' } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'unknown field',
        '/api/user',
        { method: 'POST', body: { username: 'dee', password: 'long enough', email: 'dee@example.com', role: 'x' } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'text body',
        '/api/user',
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' },
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'body over the limit',
        '/api/user',
        { method: 'POST', body: { username: 'x'.repeat(20_000), password: 'long enough', email: 'e@example.com' } },
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      ['no token', mine, {}, 401, 'UNAUTHENTICATED'],
      ['id that is not a number', '/api/user/abc', { headers: bearer(state.otherToken) }, 400, 'INVALID_ID'],
      [
        'delete without a body',
        mine,
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
        body: { username: 'bea', password: 'still not it' },
      })
    }
    expect(answer && codeOf(answer)).toEqual({ status: 429, code: 'RATE_LIMITED' })
  })

  it('answers 503 with Retry-After while the database is down', async () => {
    await api.database.close()
    expect(codeOf(await send('database down', '/api/health'))).toEqual({ status: 503, code: 'UNAVAILABLE' })
  })

  it('finds no answer that breaks the document, and a request breaks it exactly when the test says so', () => {
    expect(checked.length).toBeGreaterThan(25)
    expect(checked.filter((c) => c.response.length > 0)).toEqual([])
    expect(checked.filter((c) => c.refused !== c.request.length > 0)).toEqual([])
  })
})

describe('Prism in front of a server that breaks the document', () => {
  const api = useTestApi('pglite', 'prism_stub')
  let stub: Server
  let prism: PrismProxy
  /** Documented routes answered with bodies the document forbids. */
  const wrong: Record<string, [number, unknown]> = {
    '/api/user/1': [403, { status: 'error', code: 'FORBIDDEN', message: 'not yours', data: { id: 1 } }],
    '/api/auth/login': [401, { status: 'error', code: 'NOT_FOUND', message: 'who?', data: null }],
    '/api/user/2': [200, { status: 'success', message: 'user deleted', data: {} }],
    '/api/user/3': [401, { status: 'error', code: 'INVALID_TOKEN', message: 'invalid token: expired', data: null }],
  }

  beforeAll(async () => {
    await api.app.ready()
    stub = createServer((request, response) => {
      const [status, body] = wrong[request.url ?? ''] ?? [500, {}]
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
    const port = (stub.address() as AddressInfo).port
    prism = await startPrism(api.app.swagger(), `http://127.0.0.1:${port}`, { errors: true })
  })
  afterAll(async () => {
    await prism?.close()
    await new Promise((resolve) => stub?.close(resolve))
  })

  it.each([
    ['an error body with data', '/api/user/1', { headers: bearer('x.y.z') }, 'response.body.data'],
    [
      'a code the status does not carry',
      '/api/auth/login',
      { method: 'POST', body: { username: 'ada', password: 'x' } },
      'response.body.code',
    ],
    [
      'a delete whose data is not null',
      '/api/user/2',
      { method: 'DELETE', headers: bearer('x.y.z'), body: { current_password: 'x' } },
      'response.body.data',
    ],
    [
      'a 401 without WWW-Authenticate',
      '/api/user/3',
      { headers: bearer('x.y.z') },
      "response.header: Response header must have required property 'www-authenticate'",
    ],
  ])('flags %s', async (_name, path, request, finding) => {
    const answer = await prism.send(path, request as PrismRequest)
    expect(answer.status).toBe(500)
    expect(answer.response.map((v) => `${v.location.join('.')}: ${v.message}`).join('\n')).toContain(finding)
  })
})
