/**
 * Recognises database failures by their SQLSTATE or driver code, never by message text. drizzle wraps driver
 * errors (its `DrizzleQueryError` keeps the original as `cause`), so every check walks the cause chain.
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

/** Connection-level failures of postgres.js and Node's sockets, known to both APIs. */
export const connectionCodes = [
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
] as const

/** What differs between the apps: how deep a cause chain is walked and which codes mean "not there now". */
export interface DatabaseErrorOptions {
  /** How many errors of the cause chain are looked at. */
  depth: number
  /** The driver codes that are not SQLSTATEs ({@link connectionCodes}, and any more). */
  connectionCodes: readonly string[]
  /** The SQLSTATEs that mean the database cannot serve now (answered 503). */
  unavailableSqlState: RegExp
  /** The logged `frames` of an error without a stack. */
  framesWithoutStack: string[] | undefined
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** The checks of database errors both APIs make, with the app's codes. */
export function databaseErrors(options: DatabaseErrorOptions) {
  const connection = new Set(options.connectionCodes)

  function* chain(error: unknown): Generator<DriverError> {
    let current = error
    for (let depth = 0; depth < options.depth && current !== null && typeof current === 'object'; depth++) {
      yield current as DriverError
      current = (current as DriverError).cause
    }
  }

  /** A SQLSTATE or a connection code in the chain, or undefined when it holds no driver error. */
  function driverCode(error: unknown): string | undefined {
    for (const e of chain(error)) {
      if (typeof e.code === 'string' && (/^[0-9A-Z]{5}$/.test(e.code) || connection.has(e.code))) return e.code
    }
    return undefined
  }

  return {
    /** The unique constraint a unique-violation (23505) names ('' if none), or undefined when not one. */
    uniqueViolation(error: unknown): string | undefined {
      for (const e of chain(error)) {
        // postgres.js calls it `constraint_name`, PGlite `constraint`.
        if (e.code === '23505') return String(e.constraint_name ?? e.constraint ?? '')
      }
      return undefined
    },

    /** True for a foreign-key violation (23503): the row refers to one deleted meanwhile (e.g. its owner). */
    foreignKeyViolation(error: unknown): boolean {
      for (const e of chain(error)) if (e.code === '23503') return true
      return false
    },

    /** True when the database is unreachable, shutting down or refusing work for now (→ 503 + Retry-After). */
    databaseUnavailable(error: unknown): boolean {
      for (const e of chain(error)) {
        if (typeof e.code === 'string' && (connection.has(e.code) || options.unavailableSqlState.test(e.code))) {
          return true
        }
        // PGlite has no codes for a closed instance; its message is fixed by the library.
        if (e.message === 'PGlite is closed') return true
      }
      return false
    },

    /**
     * True for SQLSTATE class 22 (data exception: a NUL byte in text, a number out of range...): a value from
     * the request the database cannot store, answered 400.
     */
    invalidValue(error: unknown): boolean {
      for (const e of chain(error)) if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true
      return false
    },

    /**
     * What may be logged of a failure. A database error is logged by its code and the names the server
     * reports (routine, table, column, constraint) with the call frames, never its message, detail or query:
     * drizzle's message carries the SQL and every parameter (password hashes, token hashes, emails), and
     * PostgreSQL's own messages quote values. Any other error keeps its message and stack.
     */
    loggableError(error: unknown): Record<string, unknown> {
      const outer = (error ?? {}) as DriverError
      const type = text(outer.name) ?? 'Error'
      const code = driverCode(error)
      if (code === undefined) return { type, message: text(outer.message), stack: text(outer.stack) }
      const frames =
        typeof outer.stack === 'string'
          ? outer.stack.split('\n').filter((line) => /^\s+at /.test(line))
          : options.framesWithoutStack
      const fields: Record<string, unknown> = { type, code, frames }
      for (const e of chain(error)) {
        fields.severity ??= text(e.severity)
        fields.routine ??= text(e.routine)
        fields.table ??= text(e.table_name ?? e.table)
        fields.column ??= text(e.column_name ?? e.column)
        fields.constraint ??= text(e.constraint_name ?? e.constraint)
      }
      return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
    },
  }
}
