/**
 * Classifies database errors by their SQLSTATE or driver code, never by message text. Drizzle wraps driver
 * errors (`DrizzleQueryError`), so the `cause` chain is walked.
 */

interface DriverError {
  code?: unknown
  constraint_name?: unknown
  constraint?: unknown
  message?: unknown
  cause?: unknown
  name?: unknown
  stack?: unknown
  severity?: unknown
  routine?: unknown
  table_name?: unknown
  column_name?: unknown
  table?: unknown
  column?: unknown
}

function* chain(error: unknown): Generator<DriverError> {
  let current = error
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    yield current as DriverError
    current = (current as DriverError).cause
  }
}

/** The unique constraint a unique-violation (23505) names, or undefined when the error is not one. */
export function uniqueViolation(error: unknown): string | undefined {
  for (const e of chain(error)) {
    if (e.code === '23505') return String(e.constraint_name ?? e.constraint ?? '')
  }
  return undefined
}

/** True for a foreign-key violation (23503): the row refers to one deleted meanwhile (e.g. its owner). */
export function foreignKeyViolation(error: unknown): boolean {
  for (const e of chain(error)) if (e.code === '23503') return true
  return false
}

/** postgres.js connection failures, and SQLSTATE classes that mean "the database is not there right now". */
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement_timeout)
  '55P03', // lock_not_available (lock_timeout)
  '53300', // too_many_connections
])

/** True when the error says the database is unreachable, shutting down or too slow (→ 503 + Retry-After). */
export function databaseUnavailable(error: unknown): boolean {
  for (const e of chain(error)) {
    if (typeof e.code === 'string' && (unavailableCodes.has(e.code) || e.code.startsWith('08'))) return true
    // PGlite has no codes for a closed instance; its message is fixed by the library.
    if (e.message === 'PGlite is closed') return true
  }
  return false
}

/**
 * True for SQLSTATE class 22 (data exception: a NUL byte or an invalid escape in text, 22021/22P05, a value
 * out of range): a value from the request the database cannot store, answered 400.
 */
export function invalidValue(error: unknown): boolean {
  for (const e of chain(error)) if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true
  return false
}

/** A database error's code (SQLSTATE or postgres.js's), or undefined when the chain holds no driver error. */
function driverCode(error: unknown): string | undefined {
  for (const e of chain(error)) {
    if (typeof e.code === 'string' && (/^[0-9A-Z]{5}$/.test(e.code) || unavailableCodes.has(e.code))) return e.code
  }
  return undefined
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** The call frames of a stack, without its first lines (they repeat the message, which may hold parameters). */
const framesOf = (stack: unknown) =>
  typeof stack === 'string' ? stack.split('\n').filter((line) => /^\s+at /.test(line)) : undefined

/**
 * What may be logged of a failure. A database error is logged by its code and the names the server
 * reports (routine, table, column, constraint) with the call frames, never its message, detail or query:
 * drizzle's message carries the SQL and every parameter (password hashes, token hashes, emails), and
 * PostgreSQL's own messages quote values. Any other error keeps its message and stack.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  const outer = (error ?? {}) as DriverError
  const type = text(outer.name) ?? 'Error'
  const code = driverCode(error)
  if (code === undefined) return { type, message: text(outer.message), stack: text(outer.stack) }
  const fields: Record<string, unknown> = { type, code, frames: framesOf(outer.stack) }
  for (const e of chain(error)) {
    fields.severity ??= text(e.severity)
    fields.routine ??= text(e.routine)
    fields.table ??= text(e.table_name ?? e.table)
    fields.column ??= text(e.column_name ?? e.column)
    fields.constraint ??= text(e.constraint_name ?? e.constraint)
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
}
