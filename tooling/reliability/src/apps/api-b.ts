import { defaultSettings, type Settings } from '@weft/api-b/src/config/settings.ts'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { call, dataOf, suiteSecret } from './client.js'
import { type InProcessApi, startInProcess } from './load.js'

/** API B's settings for in-process tests: a known secret, a cheap KDF (speed only, same code path). */
export function apiBSettings(overrides: Partial<Settings> = {}): Settings {
  return { ...defaultSettings, secret: suiteSecret, scryptCost: 1024, ...overrides }
}

/** API B on an in-memory PGlite database, migrated. */
export type ApiB = InProcessApi<Settings>

export function startApiB(
  overrides: Partial<Settings> = {},
  logger: FastifyServerOptions['logger'] = false,
): Promise<ApiB> {
  return startInProcess('api-b', apiBSettings(overrides), logger)
}

/** A registered, logged-in user of API B. */
export interface UserB {
  id: number
  username: string
  email: string
  password: string
  accessToken: string
}

/** Registers a user and logs in. */
export async function registerB(app: FastifyInstance, name: string): Promise<UserB> {
  const user = { username: name, email: `${name}@example.test`, password: `${name}-password-1` }
  const created = dataOf<{ id: number }>(await call(app, 'POST', '/api/user', { body: user }), 201)
  const token = await loginB(app, user.username, user.password)
  return { id: created.id, ...user, accessToken: token }
}

export async function loginB(app: FastifyInstance, username: string, password: string): Promise<string> {
  const body = { username, password }
  return dataOf<{ access_token: string }>(await call(app, 'POST', '/api/auth/login', { body }), 200).access_token
}
