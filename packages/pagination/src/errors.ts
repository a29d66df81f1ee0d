/** Longest cursor token accepted in a request or produced by `setNextCursor` (a limit of the cursor format). */
export const MAX_CURSOR_LENGTH = 2048

/**
 * Base class of every error `@weft/pagination` throws. Fastify-compatible: the app's error
 * handler sees `statusCode`, a stable `code` and a message naming what was wrong.
 */
export class PaginationError extends Error {
  /** HTTP status the error stands for. */
  readonly statusCode: number
  /** Stable machine-readable code (`WEFT_*`). */
  readonly code: string

  constructor(code: string, message: string, statusCode = 400) {
    super(message)
    this.name = new.target.name
    this.code = code
    this.statusCode = statusCode
  }
}

/**
 * The request's cursor is longer than 2048 characters (400), or `setNextCursor` would produce
 * such a token (500: the server's values are too big, the client did nothing wrong).
 *
 * @example
 * ```ts
 * if (error instanceof CursorTooLongError) reply.code(error.statusCode)
 * ```
 */
export class CursorTooLongError extends PaginationError {
  /** Length of the rejected token. */
  readonly length: number

  constructor(length: number, statusCode = 400) {
    super(
      'WEFT_CURSOR_TOO_LONG',
      statusCode === 400
        ? `cursor is ${length} characters long; at most ${MAX_CURSOR_LENGTH} are accepted`
        : `next cursor would be ${length} characters long; at most ${MAX_CURSOR_LENGTH} are allowed`,
      statusCode,
    )
    this.length = length
  }
}

/**
 * The request's cursor cannot be used: not base64url, not a JSON object, a bad signature, or
 * (with `sortFingerprint`) issued for a different sort. Always 400.
 */
export class CursorInvalidError extends PaginationError {
  constructor(reason: string) {
    super('WEFT_CURSOR_INVALID', `cursor is invalid: ${reason}`)
  }
}

/**
 * With `strict: true`, a page, limit or offset that is unparsable or out of range. Always 400;
 * `field` is the query key that was wrong.
 */
export class PaginationInvalidError extends PaginationError {
  /** Query key of the offending parameter (`page`, `limit`, `offset` or the configured key). */
  readonly field: string

  constructor(field: string, reason: string) {
    super('WEFT_PAGINATION_INVALID', `query parameter "${field}" ${reason}`)
    this.field = field
  }
}

/**
 * A `paginate()` hook's own `fromContext` was asked for a request the hook did not run for (the
 * route does not have it, or its `next` skipped the request): the app's mistake, a 500.
 */
export class PageInfoMissingError extends PaginationError {
  constructor() {
    super(
      'WEFT_PAGINATION_MISSING',
      "this paginate() hook did not run for the request: add it to the route's onRequest or preHandler, or use fromContext() from @weft/pagination, which returns undefined instead",
      500,
    )
  }
}
