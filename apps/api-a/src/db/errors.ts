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
