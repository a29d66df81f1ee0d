import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ApiA, registerA, startApiA } from '../src/apps/api-a.js'
import { type ApiB, registerB, startApiB } from '../src/apps/api-b.js'
import { type ApiAnswer, call, suiteSecret } from '../src/apps/client.js'
import { claimsOf, forgeJwt, nowSeconds } from '../src/auth/jwt.js'

/**
 * The error catalogue of the repository README, held to by both APIs: each mistake goes to API A and to API B,
 * and both answer the catalogue's status and code, with the same headers, the same rule for `errors[]` and
 * `retry_after`, and (where the mistake reads the same on both) the same message.
 */

/** One API as this test drives it: where its routes are, how it logs in, and the account it acts as. */
interface Target {
  app: FastifyInstance
  registerPath: string
  userPath: (id: number | string) => string
  loginBody: (password: string) => Record<string, string>
  me: { id: number; email: string; token: string }
  otherId: number
  api: ApiA | ApiB
}

let serial = 0
/** A registration body no other call uses. */
const newUser = () => {
  serial++
  return { username: `catalogue${serial}`, email: `catalogue${serial}@example.com`, password: 'correct horse battery' }
}

async function apiA(api: ApiA): Promise<Target> {
  const me = await registerA(api.app, `first${++serial}`)
  const other = await registerA(api.app, `second${++serial}`)
  return {
    app: api.app,
    registerPath: '/api/auth/register',
    userPath: (id) => `/api/users/${id}`,
    loginBody: (password) => ({ email: me.email, password }),
    me: { id: me.id, email: me.email, token: me.accessToken },
    otherId: other.id,
    api,
  }
}

async function apiB(api: ApiB): Promise<Target> {
  const me = await registerB(api.app, `first${++serial}`)
  const other = await registerB(api.app, `second${++serial}`)
  return {
    app: api.app,
    registerPath: '/api/user',
    userPath: (id) => `/api/user/${id}`,
    loginBody: (password) => ({ username: me.username, password }),
    me: { id: me.id, email: me.email, token: me.accessToken },
    otherId: other.id,
    api,
  }
}

type Send = (t: Target) => Promise<ApiAnswer>

const json = { 'content-type': 'application/json' }
const register =
  (body: (t: Target) => unknown, headers?: Record<string, string>): Send =>
  (t) =>
    call(t.app, 'POST', t.registerPath, { body: body(t), ...(headers ? { headers } : {}) })
const mine = (t: Target) => t.userPath(t.me.id)
const asMe =
  (method: 'GET' | 'PATCH' | 'DELETE', body?: unknown): Send =>
  (t) =>
    call(t.app, method, mine(t), { token: t.me.token, ...(body === undefined ? {} : { body }) })
const withAuthorization =
  (authorization: (t: Target) => string): Send =>
  (t) =>
    call(t.app, 'GET', mine(t), { authorization: authorization(t) })
/** The caller's own token, authentic but expired a minute ago. */
const expired = (t: Target) =>
  forgeJwt(
    { alg: 'HS256', key: suiteSecret },
    { ...claimsOf(t.me.token), iat: nowSeconds() - 7200, exp: nowSeconds() - 60 },
  )

/** One mistake, the status and code the catalogue answers it with, and what else reads the same on both APIs. */
type Mistake = [name: string, send: Send, status: number, code: string | undefined, same: ('message' | 'errors')[]]

const mistakes: Mistake[] = [
  ['an unknown route', (t) => call(t.app, 'GET', '/api/nowhere'), 404, 'NOT_FOUND', ['message']],
  [
    'a path that is not percent-encoding',
    (t) => call(t.app, 'GET', t.userPath('%zz')),
    400,
    'BAD_REQUEST',
    ['message'],
  ],
  [
    'a path parameter of 150 characters',
    (t) => call(t.app, 'GET', t.userPath('1'.repeat(150))),
    400,
    'BAD_REQUEST',
    ['message'],
  ],
  ['a trailing slash', (t) => call(t.app, 'GET', '/api/health/'), 200, undefined, []],
  ['a body that is not JSON', register(() => '{"username":', json), 400, 'BAD_REQUEST', ['message']],
  // An empty body sent as JSON is no body: the fields it lacks are named.
  ['an empty JSON body', register(() => '', json), 400, 'VALIDATION_FAILED', ['errors']],
  ['a JSON array', register(() => [1, 2]), 400, 'BAD_REQUEST', ['message']],
  ['a JSON string', register(() => '"ada"', json), 400, 'BAD_REQUEST', ['message']],
  ['a text body', register(() => 'hi', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE', ['message']],
  [
    'a form',
    register(() => 'a=b', { 'content-type': 'application/x-www-form-urlencoded' }),
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    ['message'],
  ],
  [
    'a body over the limit',
    register(() => ({ ...newUser(), username: 'x'.repeat(20_000) })),
    413,
    'PAYLOAD_TOO_LARGE',
    ['message'],
  ],
  [
    'a short password',
    register(() => ({ ...newUser(), password: 'short' })),
    400,
    'VALIDATION_FAILED',
    ['message', 'errors'],
  ],
  [
    'a password over 72 bytes',
    register(() => ({ ...newUser(), password: 'é'.repeat(40) })),
    400,
    'VALIDATION_FAILED',
    ['message', 'errors'],
  ],
  [
    'an email without a dot in its domain',
    register(() => ({ ...newUser(), email: 'ada@localhost' })),
    400,
    'VALIDATION_FAILED',
    ['message', 'errors'],
  ],
  [
    'a username with a space',
    register(() => ({ ...newUser(), username: 'ada lovelace' })),
    400,
    'VALIDATION_FAILED',
    ['message', 'errors'],
  ],
  [
    'a number for a string',
    register(() => ({ ...newUser(), password: 12345678 })),
    400,
    'VALIDATION_FAILED',
    ['message', 'errors'],
  ],
  [
    'an unknown field',
    register(() => ({ ...newUser(), role: 'admin' })),
    400,
    'VALIDATION_FAILED',
    ['message', 'errors'],
  ],
  [
    'a control character',
    register(() => ({ ...newUser(), username: 'ada\u0007' })),
    400,
    'VALIDATION_FAILED',
    ['message', 'errors'],
  ],
  // Each schema lists its fields in its own order: the errors are compared as a set, the message is not.
  ['no fields at all', register(() => ({})), 400, 'VALIDATION_FAILED', ['errors']],
  ['a taken email', register((t) => ({ ...newUser(), email: t.me.email })), 409, 'CONFLICT', ['message', 'errors']],
  [
    'a wrong password',
    (t) => call(t.app, 'POST', '/api/auth/login', { body: t.loginBody('not it at all') }),
    401,
    'INVALID_CREDENTIALS',
    [],
  ],
  ['no Authorization header', (t) => call(t.app, 'GET', mine(t)), 401, 'UNAUTHENTICATED', ['message']],
  // The token is checked before the body is read: without one, what the body is does not matter.
  [
    'no token and a body that is not JSON',
    (t) => call(t.app, 'PATCH', mine(t), { body: '{"email":', headers: json }),
    401,
    'UNAUTHENTICATED',
    ['message'],
  ],
  [
    'no token and a text body',
    (t) => call(t.app, 'DELETE', mine(t), { body: 'hi', headers: { 'content-type': 'text/plain' } }),
    401,
    'UNAUTHENTICATED',
    ['message'],
  ],
  [
    'no token and an id that is not a number',
    (t) => call(t.app, 'GET', t.userPath('abc')),
    401,
    'UNAUTHENTICATED',
    ['message'],
  ],
  ['another scheme', withAuthorization(() => 'Basic YWRhOnNlY3JldA=='), 401, 'INVALID_TOKEN', ['message']],
  ['a token that is not a JWT', withAuthorization(() => 'Bearer abc.def.ghi'), 401, 'INVALID_TOKEN', ['message']],
  ['an expired token', withAuthorization((t) => `Bearer ${expired(t)}`), 401, 'INVALID_TOKEN', ['message']],
  [
    'a token signed with another key',
    withAuthorization(
      (t) => `Bearer ${forgeJwt({ alg: 'HS256', key: 'another-secret-of-32-bytes-at-least!' }, claimsOf(t.me.token))}`,
    ),
    401,
    'INVALID_TOKEN',
    ['message'],
  ],
  [
    'another account',
    (t) => call(t.app, 'GET', t.userPath(t.otherId), { token: t.me.token }),
    403,
    'FORBIDDEN',
    ['message'],
  ],
  [
    'an id that is not a number',
    (t) => call(t.app, 'GET', t.userPath('abc'), { token: t.me.token }),
    400,
    'INVALID_ID',
    ['message'],
  ],
  ['an empty update', asMe('PATCH', {}), 400, 'VALIDATION_FAILED', ['message', 'errors']],
  [
    'a new password without the current one',
    asMe('PATCH', { password: 'a brand new one' }),
    400,
    'VALIDATION_FAILED',
    ['message', 'errors'],
  ],
  ['a delete without a body', asMe('DELETE'), 400, 'VALIDATION_FAILED', ['message', 'errors']],
  ['a method the path does not have', (t) => call(t.app, 'PUT', '/api/health'), 405, 'METHOD_NOT_ALLOWED', ['message']],
]

/** What a client relies on in an answer: status, code, headers, and whether `errors[]` and `retry_after` come. */
function contractOf(answer: ApiAnswer, same: Mistake[4] = []) {
  const errors = answer.body.errors as { field: string }[] | undefined
  return {
    status: answer.status,
    code: answer.body.code,
    'www-authenticate': answer.headers['www-authenticate'],
    allow: answer.headers.allow,
    'retry-after': answer.headers['retry-after'] !== undefined,
    retry_after: answer.body.retry_after !== undefined,
    errors: same.includes('errors') ? errors?.toSorted((x, y) => x.field.localeCompare(y.field)) : errors !== undefined,
    ...(same.includes('message') ? { message: answer.body.message } : {}),
  }
}

/** Wording no message may hold: patterns, schema keywords, parser and framework texts. */
const machineWords =
  /pattern|must NOT|fewer than|properties|\(root\)|\^|Body (is|cannot)|Unsupported Media|FST_|WEFT_|bind/

describe('the error catalogue, API A against API B', () => {
  let a: Target
  let b: Target
  beforeAll(async () => {
    a = await apiA(await startApiA({ authRateLimit: 1000 }))
    b = await apiB(await startApiB({ loginRateLimitMax: 1000 }))
  })
  afterAll(async () => {
    await a?.api.close()
    await b?.api.close()
  })

  it.each(mistakes)('answers %s alike', async (_name, send, status, code, same) => {
    const [fromA, fromB] = [await send(a), await send(b)]
    expect({ status: fromA.status, code: fromA.body.code }).toEqual({ status, code })
    expect(contractOf(fromB, same)).toEqual(contractOf(fromA, same))
    for (const answer of [fromA, fromB]) expect(String(answer.body.message ?? '')).not.toMatch(machineWords)
  })
})

describe('the error catalogue over budget and without a database, API A against API B', () => {
  let a: Target
  let b: Target
  beforeAll(async () => {
    a = await apiA(await startApiA({ authRateLimit: 2 }))
    b = await apiB(await startApiB({ loginRateLimitMax: 2 }))
  })
  afterAll(async () => {
    await a?.api.close()
    await b?.api.close()
  })

  it('answers logins over the budget with 429, Retry-After, retry_after and the rate-limit headers alike', async () => {
    const overBudget = async (t: Target) => {
      let answer = await call(t.app, 'POST', '/api/auth/login', { body: t.loginBody('not it at all') })
      for (let i = 0; i < 5 && answer.status !== 429; i++) {
        answer = await call(t.app, 'POST', '/api/auth/login', { body: t.loginBody('not it at all') })
      }
      return answer
    }
    const [fromA, fromB] = [await overBudget(a), await overBudget(b)]
    expect(contractOf(fromA)).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      'retry-after': true,
      retry_after: true,
    })
    expect(contractOf(fromB)).toEqual(contractOf(fromA))
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect([header in fromA.headers, header in fromB.headers]).toEqual([true, true])
    }
  })

  it('answers while the database is down with 503, Retry-After, retry_after and the same message', async () => {
    const down = async (t: Target) => {
      await t.api.database.close()
      return call(t.app, 'GET', '/api/health')
    }
    const [fromA, fromB] = [await down(a), await down(b)]
    expect(contractOf(fromA, ['message'])).toEqual({
      status: 503,
      code: 'UNAVAILABLE',
      'www-authenticate': undefined,
      allow: undefined,
      'retry-after': true,
      retry_after: true,
      errors: false,
      message: 'the database is unavailable; retry in 5 s',
    })
    expect(contractOf(fromB, ['message'])).toEqual(contractOf(fromA, ['message']))
  })
})
