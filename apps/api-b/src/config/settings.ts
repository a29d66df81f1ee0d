import { parseCorsOrigins } from '@weft/api-shared/config/cors-origins'
import { MIN_SECRET_BYTES, secretProblem } from '@weft/api-shared/config/secret-strength'
import { parseTrustProxy, type TrustProxy } from '@weft/api-shared/config/trust-proxy'
import type { DatabaseSettings } from '@weft/api-shared/db/client'
import { databaseSettingsFromEnv } from '../db/client.js'

export { MIN_SECRET_BYTES } from '@weft/api-shared/config/secret-strength'

/**
 * Everything the API needs to know that is not code, read once at start-up.
 *
 * @example
 * ```ts
 * const settings = settingsFromEnv(process.env) // throws SettingsError when SECRET is too short
 * const app = await buildApp({ database, settings })
 * ```
 */
export interface Settings {
  /** HS256 key for access tokens, at least {@link MIN_SECRET_BYTES} bytes (`SECRET`). */
  secret: string
  /** Lifetime of an access token in seconds (`TOKEN_TTL_SECONDS`, default 3600). */
  tokenTtlSeconds: number
  /** Login attempts one IP may make per window (`LOGIN_RATE_LIMIT_MAX`, default 10). */
  loginRateLimitMax: number
  /** Length of the login rate-limit window in milliseconds (`LOGIN_RATE_LIMIT_WINDOW_MS`, default 60000). */
  loginRateLimitWindowMs: number
  /** Largest accepted request body in bytes (`BODY_LIMIT`, default 16384). */
  bodyLimit: number
  /** A request whose handler runs longer is answered 503 (`HANDLER_TIMEOUT_MS`, default 15000). */
  handlerTimeoutMs: number
  /** scrypt cost parameter N, a power of two (`SCRYPT_COST`, default 32768: 32 MiB per hash). */
  scryptCost: number
  /**
   * Password checks that may wait for one of the two scrypt slots (`PASSWORD_QUEUE_MAX`, default 64); more
   * are answered 503 with `Retry-After` instead of queueing without bound.
   */
  passwordQueueMax: number
  /**
   * Which `X-Forwarded-For` entries to trust (`TRUST_PROXY`): false (default, no proxy), a hop count, the
   * proxies' addresses or CIDR ranges, or true (all: a client can then choose its own address; warned about).
   */
  trustProxy: TrustProxy
  /** A request whose bytes have not all arrived by then gets 408 and its socket closed (`REQUEST_TIMEOUT_MS`, 30000). */
  requestTimeoutMs: number
  /**
   * A connection that has sent nothing this long after it opened is closed without an answer
   * (`IDLE_CONNECTION_TIMEOUT_MS`, default 10000); once a byte has arrived, `requestTimeoutMs` applies.
   */
  idleConnectionTimeoutMs: number
  /**
   * The origins whose pages may call the API from a browser (`CORS_ORIGINS`, comma-separated, or `*` for any);
   * none (the default) leaves CORS off.
   */
  corsOrigins: readonly string[]
}

/** Settings of the process that serves the API: the app's plus where to listen and which database. */
export interface ServerSettings extends Settings {
  port: number
  host: string
  logLevel: string
  database: DatabaseSettings
}

/** A setting is missing or wrong; the server refuses to start and prints {@link SettingsError.problems}. */
export class SettingsError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`invalid settings:\n  - ${problems.join('\n  - ')}`)
    this.name = 'SettingsError'
    this.problems = problems
  }
}

/** Where API B listens unless `PORT` says otherwise: next to API A's 3000. */
export const DEFAULT_PORT = 3001

/** The defaults of every optional setting. */
export const defaultSettings: Omit<Settings, 'secret'> = {
  tokenTtlSeconds: 3600,
  loginRateLimitMax: 10,
  loginRateLimitWindowMs: 60_000,
  bodyLimit: 16 * 1024,
  handlerTimeoutMs: 15_000,
  scryptCost: 2 ** 15,
  passwordQueueMax: 64,
  trustProxy: false,
  requestTimeoutMs: 30_000,
  idleConnectionTimeoutMs: 10_000,
  corsOrigins: [],
}

/**
 * Checks settings given in code (tests, embedding): the same rules as {@link settingsFromEnv}.
 * Throws {@link SettingsError} listing every problem.
 */
export function checkSettings(settings: Settings): Settings {
  const problems: string[] = []
  // Checked in every NODE_ENV and by buildApp too: a known or guessable key lets anyone sign tokens for any user.
  const secretIssue = secretProblem(settings.secret, `be at least ${MIN_SECRET_BYTES} bytes long`)
  if (secretIssue) problems.push(secretIssue)
  const positive = [
    'tokenTtlSeconds',
    'loginRateLimitMax',
    'loginRateLimitWindowMs',
    'bodyLimit',
    'handlerTimeoutMs',
    'requestTimeoutMs',
    'idleConnectionTimeoutMs',
    'passwordQueueMax',
  ] as const
  for (const key of positive) {
    if (!Number.isSafeInteger(settings[key]) || settings[key] < 1) problems.push(`${key} must be a positive integer`)
  }
  const cost = settings.scryptCost
  if (!Number.isSafeInteger(cost) || cost < 2 ** 10 || cost > 2 ** 20 || (cost & (cost - 1)) !== 0) {
    problems.push('SCRYPT_COST must be a power of two between 1024 and 1048576')
  }
  if (problems.length > 0) throw new SettingsError(problems)
  return settings
}

/** Reads and checks the settings from environment variables (see `.env.example`). */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const problems: string[] = []
  const integer = (name: string, fallback: number): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (!/^\d+$/.test(raw)) {
      problems.push(`${name} must be a positive integer, got "${raw}"`)
      return fallback
    }
    return Number(raw)
  }
  const app: Settings = {
    secret: env.SECRET ?? '',
    tokenTtlSeconds: integer('TOKEN_TTL_SECONDS', defaultSettings.tokenTtlSeconds),
    loginRateLimitMax: integer('LOGIN_RATE_LIMIT_MAX', defaultSettings.loginRateLimitMax),
    loginRateLimitWindowMs: integer('LOGIN_RATE_LIMIT_WINDOW_MS', defaultSettings.loginRateLimitWindowMs),
    bodyLimit: integer('BODY_LIMIT', defaultSettings.bodyLimit),
    handlerTimeoutMs: integer('HANDLER_TIMEOUT_MS', defaultSettings.handlerTimeoutMs),
    scryptCost: integer('SCRYPT_COST', defaultSettings.scryptCost),
    passwordQueueMax: integer('PASSWORD_QUEUE_MAX', defaultSettings.passwordQueueMax),
    trustProxy: parseTrustProxy(env.TRUST_PROXY) ?? false,
    requestTimeoutMs: integer('REQUEST_TIMEOUT_MS', defaultSettings.requestTimeoutMs),
    idleConnectionTimeoutMs: integer('IDLE_CONNECTION_TIMEOUT_MS', defaultSettings.idleConnectionTimeoutMs),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS) ?? [],
  }
  if (parseCorsOrigins(env.CORS_ORIGINS) === undefined) {
    problems.push(
      `CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example.com, got "${env.CORS_ORIGINS}"`,
    )
  }
  if (parseTrustProxy(env.TRUST_PROXY) === undefined) {
    problems.push(
      `TRUST_PROXY must be false, a hop count, or a comma-separated list of addresses or CIDR ranges, got "${env.TRUST_PROXY}"`,
    )
  }
  // 3001, so that API A (3000) and API B run side by side, as in docker/compose.yaml.
  const port = integer('PORT', DEFAULT_PORT)
  try {
    checkSettings(app)
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error
    problems.push(...error.problems)
  }
  if (problems.length > 0) throw new SettingsError(problems)
  return {
    ...app,
    port,
    host: env.HOST || '0.0.0.0',
    logLevel: env.LOG_LEVEL || 'info',
    database: databaseSettingsFromEnv(env),
  }
}
