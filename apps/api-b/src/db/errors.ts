/**
 * Recognises database failures by their driver codes. drizzle wraps driver errors (its
 * `DrizzleQueryError` keeps the original as `cause`), so every check walks the cause chain.
 */

interface CodedError {
  code?: unknown
  constraint_name?: unknown
  constraint?: unknown
  message?: unknown
  cause?: unknown
}

function* causes(error: unknown): Generator<CodedError> {
  let current = error
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    yield current as CodedError
    current = (current as CodedError).cause
  }
}

/** Connection-level failures of postgres.js and Node's sockets. */
const connectionCodes = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

/**
 * SQLSTATEs meaning "the server cannot serve now": class 08 (connection exception), 53 (insufficient
 * resources), 57P01–57P03 (shutdown, crash, starting up) and 57014 (statement timeout hit).
 */
function isUnavailableSqlState(code: string): boolean {
  return /^(08|53)/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '57014'
}

/** True when the error means the database is unreachable or refusing work for now (answered 503). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const cause of causes(error)) {
    if (typeof cause.code === 'string' && (connectionCodes.has(cause.code) || isUnavailableSqlState(cause.code))) {
      return true
    }
    // PGlite has no error code for a closed database.
    if (typeof cause.message === 'string' && cause.message === 'PGlite is closed') return true
  }
  return false
}

/**
 * True for SQLSTATE class 22 (data exception: a NUL byte in text, a number out of range...): a value
 * from the request that the schema let through but the database cannot store. Answered 400.
 */
export function isInvalidValue(error: unknown): boolean {
  for (const cause of causes(error)) {
    if (typeof cause.code === 'string' && /^22[0-9A-Z]{3}$/.test(cause.code)) return true
  }
  return false
}

/** The name of the unique constraint an insert or update violated (SQLSTATE 23505), if that is the error. */
export function violatedUniqueConstraint(error: unknown): string | undefined {
  for (const cause of causes(error)) {
    if (cause.code !== '23505') continue
    // postgres.js calls it `constraint_name`, PGlite `constraint`.
    const name = cause.constraint_name ?? cause.constraint
    return typeof name === 'string' ? name : ''
  }
  return undefined
}

/**
 * The innermost cause's `code`, `message` and `stack`, safe to log: for a database error that is the
 * driver's error (no query text, no parameters, which drizzle's wrapper message would carry).
 */
export function innermostError(error: unknown): { code?: string; message?: string; stack?: string } {
  let found: CodedError & { stack?: unknown } = {}
  for (const cause of causes(error)) found = cause
  return {
    code: typeof found.code === 'string' ? found.code : undefined,
    message: typeof found.message === 'string' ? found.message : undefined,
    stack: typeof found.stack === 'string' ? found.stack : undefined,
  }
}
