import { Buffer } from 'node:buffer'

/** Everything the API reads from its environment, parsed once at start-up. */
export interface Settings {
  /** HMAC key for the HS256 access tokens (`SECRET`, at least 32 bytes). */
  secret: string
  /** Access-token lifetime in seconds (`ACCESS_TOKEN_TTL`, default 900 = 15 minutes). */
  accessTokenTtl: number
  /** Refresh-token lifetime in seconds (`REFRESH_TOKEN_TTL`, default 7 days). */
  refreshTokenTtl: number
  /** scrypt cost parameter N, a power of two (`SCRYPT_COST`, default 32768). Tests use a small one. */
  scryptCost: number
  /** Largest accepted request body in bytes (`BODY_LIMIT`, default 16 KiB). */
  bodyLimit: number
  /** Requests per IP and window on login and register (`AUTH_RATE_LIMIT`, default 10). */
  authRateLimit: number
  /** Rate-limit window in milliseconds (`AUTH_RATE_WINDOW_MS`, default one minute). */
  authRateWindowMs: number
  /** Trust `X-Forwarded-For` from a proxy in front (`TRUST_PROXY=true`), default false. */
  trustProxy: boolean
  /**
   * A request whose handler is still running after this many milliseconds is answered 503
   * (`HANDLER_TIMEOUT_MS`, default 15000): the bound for a database that accepts connections and never answers.
   */
  handlerTimeoutMs: number
}

/** A setting that is missing or invalid; the server refuses to start with this message. */
export class SettingsError extends Error {
  override name = 'SettingsError'
}

/** The least `SECRET` length: an HS256 key shorter than the hash output weakens it. */
export const MIN_SECRET_BYTES = 32

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
 * @throws SettingsError when `SECRET` is missing or shorter than 32 bytes, or a number is invalid.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const secret = env.SECRET ?? ''
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
    throw new SettingsError(
      `SECRET must be set to at least ${MIN_SECRET_BYTES} bytes (got ${Buffer.byteLength(secret, 'utf8')}); ` +
        "generate one with: node -e \"console.log(require('crypto').randomBytes(48).toString('base64url'))\"",
    )
  }
  const scryptCost = integer(env, 'SCRYPT_COST', 32768, 2)
  if ((scryptCost & (scryptCost - 1)) !== 0)
    throw new SettingsError(`SCRYPT_COST must be a power of two (got ${scryptCost})`)
  return {
    secret,
    accessTokenTtl: integer(env, 'ACCESS_TOKEN_TTL', 15 * 60, 1),
    refreshTokenTtl: integer(env, 'REFRESH_TOKEN_TTL', 7 * 24 * 60 * 60, 1),
    scryptCost,
    bodyLimit: integer(env, 'BODY_LIMIT', 16 * 1024, 1024),
    authRateLimit: integer(env, 'AUTH_RATE_LIMIT', 10, 1),
    authRateWindowMs: integer(env, 'AUTH_RATE_WINDOW_MS', 60_000, 1),
    trustProxy: env.TRUST_PROXY === 'true',
    handlerTimeoutMs: integer(env, 'HANDLER_TIMEOUT_MS', 15_000, 1),
  }
}
