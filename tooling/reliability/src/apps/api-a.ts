import type { Settings } from '@weft/api-a/src/config/settings.ts'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { call, dataOf, suiteSecret } from './client.js'
import { type InProcessApi, startInProcess } from './load.js'

/** API A's settings for in-process tests: a known secret, a cheap KDF (speed only, same code path). */
export function apiASettings(overrides: Partial<Settings> = {}): Settings {
  return {
    secret: suiteSecret,
    accessTokenTtl: 900,
    refreshTokenTtl: 7 * 24 * 3600,
    scryptCost: 1024,
    bodyLimit: 16 * 1024,
    authRateLimit: 10,
    authRateWindowMs: 60_000,
    trustProxy: false,
    handlerTimeoutMs: 15_000,
    ...overrides,
  }
}

/** API A on an in-memory PGlite database, migrated. */
export type ApiA = InProcessApi<Settings>

export function startApiA(
  overrides: Partial<Settings> = {},
  logger: FastifyServerOptions['logger'] = false,
): Promise<ApiA> {
  return startInProcess('api-a', apiASettings(overrides), logger)
}

/** A registered, logged-in user of API A. */
export interface UserA {
  id: number
  username: string
  email: string
  password: string
  accessToken: string
  refreshToken: string
}

interface TokenPair {
  access_token: string
  refresh_token: string
}

/** Registers a user and logs in. */
export async function registerA(app: FastifyInstance, name: string): Promise<UserA> {
  const user = { username: name, email: `${name}@example.test`, password: `${name}-password-1` }
  const created = dataOf<{ id: number }>(await call(app, 'POST', '/api/auth/register', { body: user }), 201)
  const tokens = await loginA(app, user.email, user.password)
  return { id: created.id, ...user, accessToken: tokens.access_token, refreshToken: tokens.refresh_token }
}

export async function loginA(app: FastifyInstance, email: string, password: string): Promise<TokenPair> {
  return dataOf<TokenPair>(await call(app, 'POST', '/api/auth/login', { body: { email, password } }), 200)
}

/** Creates a product owned by the token's user; returns its id. */
export async function createProductA(
  app: FastifyInstance,
  token: string,
  title: string,
  amount = 100,
): Promise<number> {
  const body = { title, description: `about ${title}`, amount }
  return dataOf<{ id: number }>(await call(app, 'POST', '/api/products', { body, token }), 201).id
}
