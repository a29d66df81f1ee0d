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

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** A driver code in the chain: a SQLSTATE or a postgres.js connection code. */
function driverCode(error: unknown): string | undefined {
  for (const cause of causes(error)) {
    if (typeof cause.code === 'string' && (/^[0-9A-Z]{5}$/.test(cause.code) || connectionCodes.has(cause.code))) {
      return cause.code
    }
  }
  return undefined
}

/**
 * What may be logged of a server fault. A database error is logged by its code, the names the server
 * reports (routine, table, column, constraint) and the call frames, never a message, detail or stack
 * header: drizzle's message carries the SQL and every parameter, and PostgreSQL's messages quote values
 * (\`invalid input syntax for type integer: "..."\`). Any other error keeps its message and stack.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  const outer = (error ?? {}) as CodedError & { name?: unknown; stack?: unknown }
  const type = text(outer.name) ?? 'Error'
  const code = driverCode(error)
  if (code === undefined) return { type, message: text(outer.message), stack: text(outer.stack) }
  const frames = typeof outer.stack === 'string' ? outer.stack.split('\n').filter((line) => /^\s+at /.test(line)) : []
  const fields: Record<string, unknown> = { type, code, frames }
  for (const cause of causes(error) as Generator<CodedError & Record<string, unknown>>) {
    fields.severity ??= text(cause.severity)
    fields.routine ??= text(cause.routine)
    fields.table ??= text(cause.table_name ?? cause.table)
    fields.column ??= text(cause.column_name ?? cause.column)
    fields.constraint ??= text(cause.constraint_name ?? cause.constraint)
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
}
