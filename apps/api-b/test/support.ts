import { createHmac } from 'node:crypto'
import { type ContractWatch, watchContract } from '@weft/tooling/openapi-contract'
import { createScratchDatabase, type ScratchDatabase, type TestDatabaseKind } from '@weft/tooling/test-db'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import { buildApp } from '../src/app.js'
import { defaultSettings, type Settings } from '../src/config/settings.js'
import { type DatabaseHandle, openDatabase } from '../src/db/client.js'
import type { PublicUser } from '../src/schemas/users.js'

/** 48 bytes: a valid secret. */
export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-keys!!'

/** Valid settings with a cheap scrypt cost (the tests exercise behaviour, not hashing strength). */
export function testSettings(overrides: Partial<Settings> = {}): Settings {
  return { ...defaultSettings, secret: TEST_SECRET, scryptCost: 1024, loginRateLimitMax: 1000, ...overrides }
}

export interface TestApi {
  app: FastifyInstance
  database: DatabaseHandle
}

/**
 * Builds the API on a fresh database of `kind` (a scratch database on the real server for
 * `postgres`) before the file's tests, and tears both down after.
 */
export function useTestApi(kind: TestDatabaseKind, label: string, overrides: Partial<Settings> = {}): TestApi {
  const api = {} as TestApi
  let scratch: ScratchDatabase | undefined
  let contract: ContractWatch | undefined
  beforeAll(async () => {
    scratch = kind === 'postgres' ? await createScratchDatabase(`api_b_${label}`) : undefined
    api.database = await openDatabase(scratch ? { kind: 'postgres', url: scratch.url } : { kind: 'pglite' })
    await api.database.migrate()
    api.app = await buildApp({ database: api.database, settings: testSettings(overrides) })
    // Every response the tests receive is checked against the app's own OpenAPI document.
    contract = watchContract(api.app)
  })
  afterAll(async () => {
    await api.app?.close()
    await api.database?.close().catch(() => {})
    await scratch?.drop()
    const violations = contract?.violations ?? []
    if (violations.length > 0) throw new Error(`responses that break the OpenAPI document:\n${violations.join('\n')}`)
  })
  return api
}

let counter = 0

/** A fresh, valid registration body (unique within the run). */
export function newUser(prefix = 'user') {
  counter += 1
  const username = `${prefix}_${counter}_${Math.random().toString(36).slice(2, 8)}`
  return { username, email: `${username}@example.com`, password: 'correct horse battery' }
}

/** Registers a user and logs it in; returns the user's public record, its password and a token. */
export async function registeredUser(app: FastifyInstance, prefix?: string) {
  const body = newUser(prefix)
  const registered = await app.inject({ method: 'POST', url: '/api/user', payload: body })
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`)
  const token = await loginToken(app, body.username, body.password)
  const user = registered.json().data as PublicUser
  return { ...body, id: user.id, user, token }
}

/** Logs in and returns the access token (throws when login fails). */
export async function loginToken(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`)
  return res.json().data.access_token as string
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` }
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** Builds a JWT by hand, so tests can forge what a client could send (other algorithms, claims, keys). */
export function forgeToken(
  payload: Record<string, unknown>,
  options: { alg?: string; secret?: string; hmac?: 'sha256' | 'sha512' } = {},
): string {
  const alg = options.alg ?? 'HS256'
  const head = `${base64url({ alg, typ: 'JWT' })}.${base64url(payload)}`
  if (alg === 'none') return `${head}.`
  const signature = createHmac(options.hmac ?? 'sha256', options.secret ?? TEST_SECRET)
    .update(head)
    .digest('base64url')
  return `${head}.${signature}`
}

/** Seconds since the epoch. */
export const now = () => Math.floor(Date.now() / 1000)

/** The parts of an error answer a client relies on. */
export function errorOf(res: LightMyRequestResponse) {
  const body = res.json()
  return { status: res.statusCode, code: body.code as string, body }
}
