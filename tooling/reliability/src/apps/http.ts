/** An answer over real HTTP, body parsed when it is JSON. */
export interface HttpAnswer {
  status: number
  headers: Headers
  body: { status?: unknown; code?: unknown; message?: unknown; data?: unknown; retry_after?: unknown } & Record<
    string,
    unknown
  >
}

/** Sends one JSON request to a server process; rejects on network errors and after `timeoutMs`. */
export async function http(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = {}
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
  })
  const text = await response.text()
  let body: HttpAnswer['body'] = {}
  try {
    body = JSON.parse(text) as HttpAnswer['body']
  } catch {
    body = { raw: text }
  }
  return { status: response.status, headers: response.headers, body }
}

function expect2xx(answer: HttpAnswer, what: string): void {
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`)
}

/** Registers and logs in a user of a running API; returns its id and access token. */
export async function httpUser(
  api: 'api-a' | 'api-b',
  base: string,
  name: string,
): Promise<{ id: number; token: string; email: string; password: string; username: string }> {
  const user = { username: name, email: `${name}@example.test`, password: `${name}-password-1` }
  const created = await http(base, 'POST', api === 'api-a' ? '/api/auth/register' : '/api/user', { body: user })
  expect2xx(created, `register ${name}`)
  const credentials =
    api === 'api-a' ? { email: user.email, password: user.password } : { username: name, password: user.password }
  const login = await http(base, 'POST', '/api/auth/login', { body: credentials })
  expect2xx(login, `login ${name}`)
  const id = (created.body.data as { id: number }).id
  return { id, token: (login.body.data as { access_token: string }).access_token, ...user }
}
