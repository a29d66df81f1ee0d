import type { FastifyInstance } from 'fastify'
import { type ApiAnswer, call } from '../apps/client.js'
import { claimsOf, forgeJwt, nowSeconds, tamperSignature } from './jwt.js'

/** A logged-in user of either API. */
export interface MatrixUser {
  id: number
  password: string
  accessToken: string
  refreshToken?: string
}

/** What a row needs from the API under test. */
export interface MatrixApi {
  app: FastifyInstance
  /** The app's `SECRET` (to forge tokens that are validly signed but otherwise wrong). */
  secret: string
  /** `/api/users/` (A) or `/api/user/` (B). */
  userPath: string
  /** Registers and logs in a new user. */
  freshUser(): Promise<MatrixUser>
  /** The login identifier a PATCH may change only with `current_password`: `email` (A) or `username` (B). */
  identifierField: 'email' | 'username'
  /** Another instance of the API whose password-check budget (per IP and per account) is `max`. */
  withPasswordBudget(max: number): Promise<MatrixApi & { close(): Promise<void> }>
}

/** POST /api/auth/refresh-token (API A) with a refresh token and, unless undefined, an access token. */
function refresh(
  api: MatrixApi,
  accessToken: string | undefined,
  refreshToken: string | undefined,
): Promise<ApiAnswer> {
  return call(api.app, 'POST', '/api/auth/refresh-token', {
    ...(accessToken === undefined ? {} : { token: accessToken }),
    body: { refresh_token: refreshToken },
  })
}

/** The same access token, authentic (signed with the app's secret) but expired a minute ago. */
const expiredCopy = (api: MatrixApi, token: string) =>
  forgeJwt({ alg: 'HS256', key: api.secret }, { ...claimsOf(token), iat: nowSeconds() - 3600, exp: nowSeconds() - 60 })

/** One request from a given client address (the rate-limit and password-budget key). */
async function callFrom(
  app: FastifyInstance,
  remoteAddress: string,
  method: 'PATCH' | 'POST',
  url: string,
  token: string | undefined,
  body: object,
): Promise<ApiAnswer> {
  const response = await app.inject({
    method,
    url,
    remoteAddress,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    payload: body,
  })
  return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) }
}

/** Wrong `current_password` guesses on PATCH, each from another address, against an API with a budget of 3. */
async function guessCurrentPassword(api: MatrixApi, guesses: number) {
  const strict = await api.withPasswordBudget(3)
  const victim = await strict.freshUser()
  const answers: ApiAnswer[] = []
  for (let i = 0; i < guesses; i++) {
    const body = { password: 'attacker chosen 1', current_password: `guess number ${i}` }
    answers.push(
      await callFrom(
        strict.app,
        `198.51.100.${i + 1}`,
        'PATCH',
        `${strict.userPath}${victim.id}`,
        victim.accessToken,
        body,
      ),
    )
  }
  return { strict, victim, answers }
}

/** Uses the user's refresh token once (API A) and returns the new pair; the old refresh token is now spent. */
async function rotate(api: MatrixApi, user: MatrixUser): Promise<{ access_token: string; refresh_token: string }> {
  const answer = await refresh(api, user.accessToken, user.refreshToken)
  const pair = answer.body.data as { access_token: string; refresh_token: string } | null
  if (answer.status !== 200 || !pair) throw new Error(`rotation failed: ${JSON.stringify(answer.body)}`)
  return pair
}

/** One row of the auth matrix: what is sent, and the status and code the contract expects. */
export interface MatrixRow {
  row: string
  status: number
  /** The envelope's `code`; absent for success rows. */
  code?: string
  send(api: MatrixApi): Promise<ApiAnswer>
  /** A condition that must hold after the request (e.g. the table is still there). */
  afterwards?: { what: string; holds(api: MatrixApi): Promise<boolean> }
}

const bearer = (token: string) => `Bearer ${token}`

/** GET of the user's own account with the given Authorization header (absent when undefined). */
async function readSelf(api: MatrixApi, user: MatrixUser, authorization?: string): Promise<ApiAnswer> {
  return call(api.app, 'GET', `${api.userPath}${user.id}`, authorization === undefined ? {} : { authorization })
}

/** A row that presents a token derived from a fresh user's real one. */
const withToken = (row: string, code: string, derive: (token: string, api: MatrixApi) => string): MatrixRow => ({
  row,
  status: 401,
  code,
  async send(api) {
    const user = await api.freshUser()
    return readSelf(api, user, derive(user.accessToken, api))
  },
})

/** The rows both APIs share (their contracts agree on all of them). */
export const commonRows: MatrixRow[] = [
  {
    row: 'a valid token reads its own account (control)',
    status: 200,
    async send(api) {
      const user = await api.freshUser()
      return readSelf(api, user, bearer(user.accessToken))
    },
  },
  {
    row: 'no Authorization header',
    status: 401,
    code: 'UNAUTHENTICATED',
    async send(api) {
      return readSelf(api, await api.freshUser())
    },
  },
  withToken('malformed header: "Bearer" alone', 'INVALID_TOKEN', () => 'Bearer'),
  withToken('malformed header: not a JWT', 'INVALID_TOKEN', () => 'Bearer not-a-jwt'),
  withToken('malformed header: two tokens', 'INVALID_TOKEN', (t) => `Bearer ${t} ${t}`),
  withToken('wrong scheme: Basic', 'INVALID_TOKEN', () => `Basic ${Buffer.from('user:pass').toString('base64')}`),
  withToken('wrong scheme: Token with a valid JWT', 'INVALID_TOKEN', (t) => `Token ${t}`),
  withToken('bad signature (one character changed)', 'INVALID_TOKEN', (t) => bearer(tamperSignature(t))),
  withToken('signed with another secret', 'INVALID_TOKEN', (t) =>
    bearer(forgeJwt({ alg: 'HS256', key: 'another-secret-of-at-least-32-bytes!!' }, claimsOf(t))),
  ),
  withToken('alg: none', 'INVALID_TOKEN', (t) => bearer(forgeJwt({ alg: 'none' }, claimsOf(t)))),
  withToken('other algorithm: HS512 with the right secret', 'INVALID_TOKEN', (t, api) =>
    bearer(forgeJwt({ alg: 'HS512', key: api.secret }, claimsOf(t))),
  ),
  withToken('other algorithm: RS256', 'INVALID_TOKEN', (t) => bearer(forgeJwt({ alg: 'RS256' }, claimsOf(t)))),
  withToken('expired (right secret, exp in the past)', 'INVALID_TOKEN', (t, api) =>
    bearer(
      forgeJwt({ alg: 'HS256', key: api.secret }, { ...claimsOf(t), iat: nowSeconds() - 7200, exp: nowSeconds() - 60 }),
    ),
  ),
  withToken('not yet valid (right secret, nbf in the future)', 'INVALID_TOKEN', (t, api) =>
    bearer(forgeJwt({ alg: 'HS256', key: api.secret }, { ...claimsOf(t), nbf: nowSeconds() + 3600 })),
  ),
  withToken('claims stripped of exp (right secret)', 'INVALID_TOKEN', (t, api) => {
    const { exp: _exp, ...claims } = claimsOf(t)
    return bearer(forgeJwt({ alg: 'HS256', key: api.secret }, claims))
  }),
  withToken('oversized token (16 KB of garbage)', 'INVALID_TOKEN', () => bearer('a'.repeat(16_000))),
  withToken('oversized token (right secret, 10 KB claim)', 'INVALID_TOKEN', (t, api) =>
    bearer(forgeJwt({ alg: 'HS256', key: api.secret }, { ...claimsOf(t), pad: 'x'.repeat(10_000) })),
  ),
  {
    row: "sub rewritten to another user's id (re-signed without the secret)",
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const [me, other] = [await api.freshUser(), await api.freshUser()]
      const forged = forgeJwt({ alg: 'HS512', key: 'wrong' }, { ...claimsOf(me.accessToken), sub: String(other.id) })
      return readSelf(api, other, bearer(forged))
    },
  },
  {
    row: 'token of a deleted user',
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const user = await api.freshUser()
      const gone = await call(api.app, 'DELETE', `${api.userPath}${user.id}`, {
        token: user.accessToken,
        body: { current_password: user.password },
      })
      if (gone.status >= 300) throw new Error(`could not delete the user: ${JSON.stringify(gone.body)}`)
      return readSelf(api, user, bearer(user.accessToken))
    },
  },
  ...(['GET', 'PATCH', 'DELETE'] as const).map(
    (method): MatrixRow => ({
      row: `another user's account: ${method}`,
      status: 403,
      code: 'FORBIDDEN',
      async send(api) {
        const [me, other] = [await api.freshUser(), await api.freshUser()]
        const body = method === 'PATCH' ? { username: `taken${me.id}x${other.id}` } : undefined
        return call(api.app, method, `${api.userPath}${other.id}`, { token: me.accessToken, body })
      },
    }),
  ),
  {
    row: 'login identifier changed with an access token alone (no current_password)',
    status: 400,
    code: 'VALIDATION_FAILED',
    async send(api) {
      const user = await api.freshUser()
      const value = api.identifierField === 'email' ? `hijacked${user.id}@example.test` : `hijacked${user.id}`
      return call(api.app, 'PATCH', `${api.userPath}${user.id}`, {
        token: user.accessToken,
        body: { [api.identifierField]: value },
      })
    },
  },
  {
    row: 'account deleted with an access token alone (no current_password)',
    status: 400,
    code: 'VALIDATION_FAILED',
    async send(api) {
      const user = await api.freshUser()
      return call(api.app, 'DELETE', `${api.userPath}${user.id}`, { token: user.accessToken, body: {} })
    },
    afterwards: {
      what: 'the account still exists',
      async holds(api) {
        const user = await api.freshUser()
        await call(api.app, 'DELETE', `${api.userPath}${user.id}`, { token: user.accessToken, body: {} })
        return (await readSelf(api, user, bearer(user.accessToken))).status === 200
      },
    },
  },
  {
    row: 'password oracle: current_password guesses on PATCH from rotating addresses are throttled',
    status: 429,
    code: 'RATE_LIMITED',
    async send(api) {
      const { strict, answers } = await guessCurrentPassword(api, 5)
      await strict.close()
      return answers.at(-1) as ApiAnswer
    },
  },
  {
    row: 'password oracle: guesses on PATCH spend the account’s login budget',
    status: 429,
    code: 'RATE_LIMITED',
    async send(api) {
      const { strict, victim, answers } = await guessCurrentPassword(api, 3)
      if (answers.some((a) => a.status !== 400 && a.status !== 429)) throw new Error('unexpected guess answer')
      const credentials =
        api.identifierField === 'email'
          ? { email: (victim as MatrixUser & { email?: string }).email, password: victim.password }
          : { username: (victim as MatrixUser & { username?: string }).username, password: victim.password }
      const answer = await callFrom(strict.app, '203.0.113.99', 'POST', '/api/auth/login', undefined, credentials)
      await strict.close()
      return answer
    },
  },
  ...['1 OR 1=1', '1;DROP TABLE users', "1' --", '1)) UNION SELECT password_hash FROM users --'].map(
    (id): MatrixRow => ({
      row: `SQL-looking id: ${id}`,
      status: 400,
      code: 'INVALID_ID',
      async send(api) {
        const me = await api.freshUser()
        return call(api.app, 'GET', `${api.userPath}${encodeURIComponent(id)}`, { token: me.accessToken })
      },
      afterwards: {
        what: 'the caller can still read their account (the users table is intact)',
        async holds(api) {
          const me = await api.freshUser()
          return (await readSelf(api, me, bearer(me.accessToken))).status === 200
        },
      },
    }),
  ),
]

/** Rows of API A only: logout, refresh rotation, products. */
export const apiARows: MatrixRow[] = [
  {
    row: 'revoked by logout',
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const user = await api.freshUser()
      const out = await call(api.app, 'POST', '/api/auth/logout', { token: user.accessToken })
      if (out.status !== 200) throw new Error(`logout failed: ${JSON.stringify(out.body)}`)
      return readSelf(api, user, bearer(user.accessToken))
    },
  },
  {
    row: 'refresh token reused after rotation',
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const user = await api.freshUser()
      const pair = await rotate(api, user)
      return refresh(api, pair.access_token, user.refreshToken)
    },
  },
  {
    row: 'refresh reuse revokes the family: the newest refresh token is refused too',
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const user = await api.freshUser()
      const pair = await rotate(api, user)
      await refresh(api, pair.access_token, user.refreshToken)
      return refresh(api, pair.access_token, pair.refresh_token)
    },
  },
  {
    row: 'token issued before a password change',
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const user = await api.freshUser()
      const body = { password: `${user.password}-new`, current_password: user.password }
      const changed = await call(api.app, 'PATCH', `${api.userPath}${user.id}`, { token: user.accessToken, body })
      if (changed.status !== 200) throw new Error(`password change failed: ${JSON.stringify(changed.body)}`)
      return readSelf(api, user, bearer(user.accessToken))
    },
  },
  {
    row: 'refresh after the access token expired (expired but authentic access token of the session)',
    status: 200,
    async send(api) {
      const user = await api.freshUser()
      return refresh(api, expiredCopy(api, user.accessToken), user.refreshToken)
    },
  },
  {
    row: 'refresh with the refresh token alone',
    status: 200,
    async send(api) {
      const user = await api.freshUser()
      return refresh(api, undefined, user.refreshToken)
    },
  },
  {
    row: 'refresh with an access token of another session',
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const [me, other] = [await api.freshUser(), await api.freshUser()]
      return refresh(api, other.accessToken, me.refreshToken)
    },
  },
  {
    row: "theft then replay, thief first: the victim's replay is refused",
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const victim = await api.freshUser()
      await refresh(api, undefined, victim.refreshToken)
      return refresh(api, expiredCopy(api, victim.accessToken), victim.refreshToken)
    },
  },
  {
    row: "theft then replay, thief first: the replay revokes the thief's new access token",
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const victim = await api.freshUser()
      const stolen = (await refresh(api, undefined, victim.refreshToken)).body.data as { access_token: string }
      await refresh(api, expiredCopy(api, victim.accessToken), victim.refreshToken)
      return readSelf(api, victim, bearer(stolen.access_token))
    },
  },
  {
    row: "theft then replay, victim first: the thief's replay revokes the victim's new tokens",
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const victim = await api.freshUser()
      const renewed = await rotate(api, victim)
      await refresh(api, undefined, victim.refreshToken)
      return refresh(api, renewed.access_token, renewed.refresh_token)
    },
  },
  {
    row: "another user's product: DELETE",
    status: 403,
    code: 'FORBIDDEN',
    async send(api) {
      const [me, other] = [await api.freshUser(), await api.freshUser()]
      const made = await call(api.app, 'POST', '/api/products', {
        token: other.accessToken,
        body: { title: 'theirs', amount: 1 },
      })
      const id = (made.body.data as { id: number } | null)?.id
      if (made.status !== 201 || id === undefined) throw new Error(`create failed: ${JSON.stringify(made.body)}`)
      return call(api.app, 'DELETE', `/api/products/${id}`, { token: me.accessToken })
    },
  },
  {
    row: 'SQL-looking product id',
    status: 400,
    code: 'INVALID_ID',
    send: (api) => call(api.app, 'GET', `/api/products/${encodeURIComponent("1' OR '1'='1")}`),
  },
  ...['id;drop table products', 'title desc, (select pg_sleep(5))', '-amount) --', 'id,"; delete from users; --'].map(
    (sort): MatrixRow => ({
      row: `SQL-looking sort: ${sort} (ignored: not an allowed field)`,
      status: 200,
      async send(api) {
        const me = await api.freshUser()
        await call(api.app, 'POST', '/api/products', {
          token: me.accessToken,
          body: { title: 'still here', amount: 1 },
        })
        const listed = await call(api.app, 'GET', `/api/products?sort=${encodeURIComponent(sort)}`)
        return listed
      },
      afterwards: {
        what: 'products are still listed (the sort text never reached SQL)',
        async holds(api) {
          const after = await call(api.app, 'GET', '/api/products?limit=1')
          return Array.isArray(after.body.data) && after.body.data.length > 0
        },
      },
    }),
  ),
]

/** Rows of API B only: issuer pinning and the token version bumped by a password change. */
export const apiBRows: MatrixRow[] = [
  withToken('wrong issuer (right secret)', 'INVALID_TOKEN', (t, api) =>
    bearer(forgeJwt({ alg: 'HS256', key: api.secret }, { ...claimsOf(t), iss: 'someone-else' })),
  ),
  withToken('stale token version (right secret)', 'INVALID_TOKEN', (t, api) => {
    const claims = claimsOf(t)
    return bearer(forgeJwt({ alg: 'HS256', key: api.secret }, { ...claims, ver: Number(claims.ver) + 1 }))
  }),
  {
    row: 'token issued before a password change',
    status: 401,
    code: 'INVALID_TOKEN',
    async send(api) {
      const user = await api.freshUser()
      const body = { password: `${user.password}-new`, current_password: user.password }
      const changed = await call(api.app, 'PATCH', `${api.userPath}${user.id}`, { token: user.accessToken, body })
      if (changed.status !== 200) throw new Error(`password change failed: ${JSON.stringify(changed.body)}`)
      return readSelf(api, user, bearer(user.accessToken))
    },
  },
]

/**
 * `SECRET` values either API must refuse to start with, in any NODE_ENV: the ones the repository ships as
 * examples, and low-entropy ones (a repeated character, a repeated pattern, too few distinct characters).
 */
export const refusedSecrets: { row: string; secret: string }[] = [
  { row: "docker/.env.example's API A placeholder", secret: 'replace-with-at-least-32-bytes-of-random-a' },
  { row: "docker/.env.example's API B placeholder", secret: 'replace-with-at-least-32-bytes-of-random-b' },
  { row: 'a placeholder asking to be changed', secret: 'change-me-change-me-change-me-0123456789' },
  { row: 'one character repeated', secret: 'a'.repeat(48) },
  { row: 'a short pattern repeated', secret: 'ab12'.repeat(12) },
  { row: 'too few distinct characters', secret: 'abcdefabcdefabcdefabcdefabcdeffedcba' },
  { row: 'shorter than 32 bytes', secret: 'k9Vd2-Qx7LmR4tZp8WcY1nB6hJ3sF0g' },
]
