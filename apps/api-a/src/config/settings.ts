import { parseCorsOrigins } from '@weft/api-shared/config/cors-origins'
import { secretProblem } from '@weft/api-shared/config/secret-strength'
import { parseTrustProxy, type TrustProxy } from '@weft/api-shared/config/trust-proxy'

/** Everything the API reads from its environment, parsed once at start-up. */
export interface Settings {
  /** HMAC key for the HS256 access tokens (`SECRET`, at least 32 bytes). */
  secret: string
  /**
   * The key being rotated out (`SECRET_PREVIOUS`): access tokens and cursors it signed are still accepted
   * while every replica moves to the new `SECRET`; nothing new is signed with it. Unset outside a rotation.
   */
  previousSecret?: string
  /** Access-token lifetime in seconds (`ACCESS_TOKEN_TTL`, default 900 = 15 minutes). */
  accessTokenTtl: number
  /** Refresh-token lifetime in seconds (`REFRESH_TOKEN_TTL`, default 7 days). */
  refreshTokenTtl: number
  /** scrypt cost parameter N, a power of two (`SCRYPT_COST`, default 32768). Tests use a small one. */
  scryptCost: number
  /**
   * Password checks that may wait for one of the two scrypt slots (`PASSWORD_QUEUE_MAX`, default 64); more
   * are answered 503 with `Retry-After` instead of queueing without bound.
   */
  passwordQueueMax?: number
  /** Largest accepted request body in bytes (`BODY_LIMIT`, default 16 KiB). */
  bodyLimit: number
  /** Requests per IP and window on login and register (`AUTH_RATE_LIMIT`, default 10). */
  authRateLimit: number
  /** Rate-limit window in milliseconds (`AUTH_RATE_WINDOW_MS`, default one minute). */
  authRateWindowMs: number
  /**
   * Which `X-Forwarded-For` entries to trust (`TRUST_PROXY`): false (default, no proxy), a hop count, the
   * proxies' addresses or CIDR ranges, or true (all: a client can then choose its own address; warned about).
   */
  trustProxy: TrustProxy
  /**
   * A request whose bytes have not all arrived after this many milliseconds is answered 408 and its socket
   * closed (`REQUEST_TIMEOUT_MS`, default 30000).
   */
  requestTimeoutMs?: number
  /**
   * A connection that has sent nothing this many milliseconds after it opened is closed without an answer
   * (`IDLE_CONNECTION_TIMEOUT_MS`, default 10000); once a byte has arrived, `requestTimeoutMs` applies.
   */
  idleConnectionTimeoutMs?: number
  /**
   * A request whose handler is still running after this many milliseconds is answered 503
   * (`HANDLER_TIMEOUT_MS`, default 15000): the bound for a database that accepts connections and never answers.
   */
  handlerTimeoutMs: number
  /**
   * Redis for the rate limits and password-attempt budgets that several replicas must share
   * (`REDIS_URL`, e.g. `redis://redis:6379`); without it each process counts in its own memory.
   */
  redisUrl?: string
  /**
   * The origins whose pages may call the API from a browser (`CORS_ORIGINS`, comma-separated, or `*` for any);
   * none (the default) leaves CORS off.
   */
  corsOrigins?: readonly string[]
}

/** A setting that is missing or invalid; the server refuses to start with this message. */
export class SettingsError extends Error {
  override name = 'SettingsError'
}

export { MIN_SECRET_BYTES } from '@weft/api-shared/config/secret-strength'

function integer(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number): number {
  const raw = env[key]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < min) {
    throw new SettingsError(`${key} must be an integer >= ${min} (got "${raw}")`)
  }
  return value
}

/**
 * Parses the settings from an environment.
 *
 * @example
 * const settings = settingsFromEnv({ SECRET: 'a-long-random-string-of-at-least-32-bytes' })
 * @throws SettingsError when `SECRET` is missing, shorter than 32 bytes, an example value from the repository or
 *   of low entropy, `TRUST_PROXY` or `CORS_ORIGINS` is not understood, or a number is invalid.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const secret = env.SECRET ?? ''
  // Checked in every NODE_ENV: a known or guessable key lets anyone sign tokens for any user.
  const problem = secretProblem(secret)
  if (problem) throw new SettingsError(problem)
  const previousSecret = env.SECRET_PREVIOUS || undefined
  if (previousSecret !== undefined) {
    const previousProblem = secretProblem(previousSecret)
    if (previousProblem) throw new SettingsError(previousProblem.replace(/^SECRET/, 'SECRET_PREVIOUS'))
    if (previousSecret === secret) throw new SettingsError('SECRET_PREVIOUS must differ from SECRET')
  }
  const trustProxy = parseTrustProxy(env.TRUST_PROXY)
  if (trustProxy === undefined) {
    throw new SettingsError(
      `TRUST_PROXY must be false, a hop count, or a comma-separated list of addresses or CIDR ranges (got "${env.TRUST_PROXY}")`,
    )
  }
  const corsOrigins = parseCorsOrigins(env.CORS_ORIGINS)
  if (corsOrigins === undefined) {
    throw new SettingsError(
      `CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example.com (got "${env.CORS_ORIGINS}")`,
    )
  }
  const scryptCost = integer(env, 'SCRYPT_COST', 32768, 2)
  if ((scryptCost & (scryptCost - 1)) !== 0)
    throw new SettingsError(`SCRYPT_COST must be a power of two (got ${scryptCost})`)
  return {
    secret,
    previousSecret,
    accessTokenTtl: integer(env, 'ACCESS_TOKEN_TTL', 15 * 60, 1),
    refreshTokenTtl: integer(env, 'REFRESH_TOKEN_TTL', 7 * 24 * 60 * 60, 1),
    scryptCost,
    passwordQueueMax: integer(env, 'PASSWORD_QUEUE_MAX', 64, 1),
    bodyLimit: integer(env, 'BODY_LIMIT', 16 * 1024, 1024),
    authRateLimit: integer(env, 'AUTH_RATE_LIMIT', 10, 1),
    authRateWindowMs: integer(env, 'AUTH_RATE_WINDOW_MS', 60_000, 1),
    trustProxy,
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1),
    idleConnectionTimeoutMs: integer(env, 'IDLE_CONNECTION_TIMEOUT_MS', 10_000, 1),
    handlerTimeoutMs: integer(env, 'HANDLER_TIMEOUT_MS', 15_000, 1),
    redisUrl: env.REDIS_URL || undefined,
    corsOrigins,
  }
}
