/** One answer seen through HAProxy, with the replica that gave it (HAProxy's `X-Replica`). */
export interface Answer {
  status: number
  replica: string
  body: { status?: string; code?: string; data?: unknown } | undefined
}

/** Sends one JSON request through HAProxy. A network failure is an answer with status 0. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {}
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.token) headers.authorization = `Bearer ${options.token}`
  try {
    const response = await fetch(base + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(20_000),
    })
    const text = await response.text()
    return {
      status: response.status,
      replica: response.headers.get('x-replica') ?? '',
      body: text ? (JSON.parse(text) as Answer['body']) : undefined,
    }
  } catch {
    return { status: 0, replica: '', body: undefined }
  }
}

let users = 0

export interface Account {
  id: number
  email: string
  password: string
  access: string
  refresh: string
}

/** Registers a user and logs it in through HAProxy. */
export async function signUp(base: string): Promise<Account> {
  users++
  const name = `scale_${process.pid}_${users}_${Date.now().toString(36)}`
  const email = `${name}@example.com`
  const password = 'correct horse battery staple'
  const registered = await call(base, 'POST', '/api/auth/register', { body: { username: name, email, password } })
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`)
  const login = await call(base, 'POST', '/api/auth/login', { body: { email, password } })
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`)
  const tokens = login.body?.data as { access_token: string; refresh_token: string }
  const user = registered.body?.data as { id: number }
  return {
    id: user.id,
    email,
    password,
    access: tokens.access_token,
    refresh: tokens.refresh_token,
  }
}
