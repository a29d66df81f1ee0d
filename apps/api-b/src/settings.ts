import { existsSync } from 'node:fs'
import { type DatabaseSettings, databaseSettingsFromEnv } from './db/client.js'

/** The shortest `SECRET` accepted, in bytes: HS256 keys shorter than the hash output are weak. */
export const MIN_SECRET_BYTES = 32

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

/** The defaults of every optional setting. */
export const defaultSettings: Omit<Settings, 'secret'> = {
  tokenTtlSeconds: 3600,
  loginRateLimitMax: 10,
  loginRateLimitWindowMs: 60_000,
  bodyLimit: 16 * 1024,
  handlerTimeoutMs: 15_000,
  scryptCost: 2 ** 15,
}

/**
 * Checks settings given in code (tests, embedding): the same rules as {@link settingsFromEnv}.
 * Throws {@link SettingsError} listing every problem.
 */
export function checkSettings(settings: Settings): Settings {
  const problems: string[] = []
  if (Buffer.byteLength(settings.secret, 'utf8') < MIN_SECRET_BYTES) {
    problems.push(`SECRET must be at least ${MIN_SECRET_BYTES} bytes long (generate one with: openssl rand -base64 48)`)
  }
  const positive: (keyof Omit<Settings, 'secret'>)[] = [
    'tokenTtlSeconds',
    'loginRateLimitMax',
    'loginRateLimitWindowMs',
    'bodyLimit',
    'handlerTimeoutMs',
  ]
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
  }
  const port = integer('PORT', 3000)
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

/**
 * Loads `.env` into `process.env` without overriding variables already set: the app folder's file
 * when it exists, else the repository root's. Returns the file loaded, if any.
 */
export function loadEnvFile(): string | undefined {
  const candidates = [new URL('../.env', import.meta.url), new URL('../../../.env', import.meta.url)]
  for (const candidate of candidates) {
    if (existsSync(candidate)) {
      process.loadEnvFile(candidate.pathname)
      return candidate.pathname
    }
  }
  return undefined
}
