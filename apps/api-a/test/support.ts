import { createHmac } from 'node:crypto'
import { type ContractWatch, watchContract } from '@weft/tooling/openapi-contract'
import { createScratchDatabase, type ScratchDatabase } from '@weft/tooling/test-db'
import type { FastifyInstance, FastifyServerOptions, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../src/app.js'
import type { Settings } from '../src/config/settings.js'
import { type DatabaseHandle, openDatabase } from '../src/db/client.js'

/** Fast settings for tests: a tiny scrypt cost and a generous rate limit. */
export const testSettings: Settings = {
  secret: 'test-secret-that-is-at-least-32-bytes-long',
  accessTokenTtl: 900,
  refreshTokenTtl: 3600,
  scryptCost: 1024,
  bodyLimit: 16 * 1024,
  authRateLimit: 1000,
  authRateWindowMs: 60_000,
  trustProxy: false,
  handlerTimeoutMs: 15_000,
}

export interface TestApp {
  app: FastifyInstance
  database: DatabaseHandle
  /** Builds another app on the same database (a "restart"). */
  rebuild(settings?: Partial<Settings>): Promise<FastifyInstance>
  close(): Promise<void>
}

/** A migrated database of the given kind (a scratch database on the real server) and an app on it. */
export async function startApp(
  kind: 'pglite' | 'postgres',
  label: string,
  settings: Partial<Settings> = {},
  logger?: FastifyServerOptions['logger'],
): Promise<TestApp> {
  const scratch: ScratchDatabase | undefined =
    kind === 'postgres' ? await createScratchDatabase(`api_a_${label}`) : undefined
  const database = await openDatabase(scratch ? { kind: 'postgres', url: scratch.url } : { kind: 'pglite' })
  await database.migrate()
  const apps: FastifyInstance[] = []
  const contracts: ContractWatch[] = []
  const build = async (more: Partial<Settings> = {}) => {
    const app = await buildApp({ database, settings: { ...testSettings, ...settings, ...more }, logger })
    apps.push(app)
    // Every response the tests receive is checked against the app's own OpenAPI document.
    contracts.push(watchContract(app))
    return app
  }
  const app = await build()
  return {
    app,
    database,
    rebuild: build,
    async close() {
      for (const a of apps) await a.close()
      await database.close().catch(() => {})
      await scratch?.drop()
      const violations = contracts.flatMap((contract) => contract.violations)
      if (violations.length > 0) throw new Error(`responses that break the OpenAPI document:\n${violations.join('\n')}`)
    },
  }
}

let counter = 0

/** A fresh, unique registration body. */
export function newUser(prefix = 'user') {
  counter++
  const tag = `${prefix}${counter}${Math.random().toString(36).slice(2, 8)}`
  return { username: tag, email: `${tag}@example.com`, password: 'correct horse battery' }
}

export interface Account {
  id: number
  email: string
  password: string
  access: string
  refresh: string
}

/** Registers and logs in a new user. */
export async function signUp(app: FastifyInstance, prefix?: string): Promise<Account> {
  const user = newUser(prefix)
  const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: user })
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`)
  const tokens = await login(app, user.email, user.password)
  return { id: registered.json().data.id, email: user.email, password: user.password, ...tokens }
}

/** Logs in and returns the token pair. */
export async function login(app: FastifyInstance, email: string, password: string) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`)
  const data = res.json().data
  return { access: data.access_token as string, refresh: data.refresh_token as string }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** The error envelope's code and the status, for compact assertions. */
export const outcome = (res: LightMyRequestResponse) => ({ status: res.statusCode, code: res.json().code as unknown })

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** Signs a JWT by hand (HS256/HS512) or leaves it unsigned (`alg: none`), for the auth matrix. */
export function forgeToken(
  claims: Record<string, unknown>,
  { secret = testSettings.secret, alg = 'HS256' }: { secret?: string; alg?: 'HS256' | 'HS512' | 'none' } = {},
): string {
  const head = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`
  if (alg === 'none') return `${head}.`
  const hash = alg === 'HS256' ? 'sha256' : 'sha512'
  return `${head}.${createHmac(hash, secret).update(head).digest('base64url')}`
}

/** The claims of a token (unverified). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
}
