import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerA, startApiA } from '../src/apps/api-a.js'
import { registerB, startApiB } from '../src/apps/api-b.js'
import { documentedCodes } from '../src/apps/client.js'
import { captureLogs, type LogCapture, leaksIn } from '../src/fuzz/logs.js'
import type { FuzzRequest, FuzzResponse } from '../src/fuzz/target.js'
import { fromDocument } from '../src/fuzz/targets/document-routes.js'

/**
 * Every 5xx the fuzzer found, replayed as a plain request (issue 14): a NUL (or another control) in a JSON
 * string field reached PostgreSQL, which refuses it in `text`, and the 500's log line carried the SQL
 * parameters, a new scrypt hash among them. Each row must answer without a 5xx (a 4xx, or a success
 * where the value is legitimately accepted, as a password with a NUL is: it is only ever hashed), in the
 * document's shape, and log nothing secret.
 */
type Api = 'api-a' | 'api-b'

interface Row {
  api: Api
  name: string
  method: 'POST' | 'PATCH'
  /** `:self` is the logged-in user's id. */
  url: string
  auth: boolean
  body: Record<string, unknown>
}

const rows: Row[] = [
  [
    'api-a',
    'register, NUL in email',
    'POST',
    '/api/auth/register',
    false,
    { username: 'nul_user', email: 'a\u0000b@x.test', password: 'password-123' },
  ],
  [
    'api-a',
    'register, NUL in password',
    'POST',
    '/api/auth/register',
    false,
    { username: 'nul_pass', email: 'np@x.test', password: 'pass\u0000word-123' },
  ],
  [
    'api-a',
    'login, NUL in email',
    'POST',
    '/api/auth/login',
    false,
    { email: '\u0000x@x.test', password: 'password-123' },
  ],
  [
    'api-a',
    'login, NUL in password',
    'POST',
    '/api/auth/login',
    false,
    { email: 'owner@example.test', password: 'pass\u0000word' },
  ],
  ['api-a', 'PATCH own email, NUL inside', 'PATCH', '/api/users/:self', true, { email: 'me\u0000@x.test' }],
  ['api-a', 'product title, NUL inside', 'POST', '/api/products', true, { title: '\u0000rebind', amount: 0 }],
  [
    'api-a',
    'product description, NUL inside',
    'POST',
    '/api/products',
    true,
    { title: 'ok', description: 'a\u0000', amount: 1 },
  ],
  [
    'api-a',
    'product title, C1 control and lone surrogate',
    'POST',
    '/api/products',
    true,
    { title: '\u0085\ud800', amount: 1 },
  ],
  ['api-a', 'refresh token, NUL inside', 'POST', '/api/auth/refresh-token', true, { refresh_token: 'a\u0000b' }],
  [
    'api-b',
    'register, NUL in email',
    'POST',
    '/api/user',
    false,
    { username: 'nul_user', email: 'a\u0000b@x.test', password: 'password-123' },
  ],
  [
    'api-b',
    'login, NUL in username',
    'POST',
    '/api/auth/login',
    false,
    { username: 'a\u0000b', password: 'password-123' },
  ],
  [
    'api-b',
    'login, NUL in password',
    'POST',
    '/api/auth/login',
    false,
    { username: 'fuzzer', password: 'pass\u0000word' },
  ],
  ['api-b', 'PATCH own email, NUL inside', 'PATCH', '/api/user/:self', true, { email: 'me\u0000@x.test' }],
].map(([api, name, method, url, auth, body]) => ({ api, name, method, url, auth, body }) as Row)

interface Started {
  inject(request: FuzzRequest): Promise<FuzzResponse>
  check(request: FuzzRequest, response: FuzzResponse): string[]
  logs: LogCapture
  self: { id: number; authorization: string; secrets: string[] }
  close(): Promise<void>
}

async function start(api: Api): Promise<Started> {
  const logs = captureLogs()
  const running =
    api === 'api-a'
      ? await startApiA({ authRateLimit: 1_000 }, logs.logger)
      : await startApiB({ loginRateLimitMax: 1_000 }, logs.logger)
  const { app } = running
  const user = api === 'api-a' ? await registerA(app, 'owner') : await registerB(app, 'fuzzer')
  logs.take()
  return {
    inject: async (r) => {
      const response = await app.inject({
        method: r.method,
        url: r.url,
        headers: r.headers,
        ...(r.payload ? { payload: r.payload } : {}),
      })
      return { statusCode: response.statusCode, headers: response.headers, body: response.body }
    },
    check: fromDocument(app, documentedCodes).check,
    logs,
    self: { id: user.id, authorization: `Bearer ${user.accessToken}`, secrets: [user.password, user.accessToken] },
    close: () => running.close(),
  }
}

describe.each(['api-a', 'api-b'] as const)('%s: inputs the fuzzer found a 5xx with', (api) => {
  let started: Started
  beforeAll(async () => {
    started = await start(api)
  })
  afterAll(async () => {
    await started?.close()
  })

  it.each(rows.filter((r) => r.api === api).map((r) => [r.name, r] as const))(
    "%s: no 5xx, the document's shape, nothing secret logged",
    async (_name, row) => {
      const request: FuzzRequest = {
        method: row.method,
        url: row.url.replace(':self', String(started.self.id)),
        headers: {
          'content-type': 'application/json',
          ...(row.auth ? { authorization: started.self.authorization } : {}),
        },
        payload: Buffer.from(JSON.stringify(row.body)),
        operation: `${row.method} ${row.url.replace(':self', '{id}')}`,
      }
      const response = await started.inject(request)
      const leaks = leaksIn(started.logs.take(), started.self.secrets)
      expect({
        status: response.statusCode < 500 ? 'not 5xx' : response.statusCode,
        // A failed login's 401 without a challenge is a finding of its own (the fuzz test reports it).
        problems: started.check(request, response).filter((p) => p !== '401 without WWW-Authenticate: Bearer'),
        leaks: leaks.map((l) => l.kind),
      }).toEqual({ status: 'not 5xx', problems: [], leaks: [] })
    },
  )
})
