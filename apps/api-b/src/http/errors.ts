import createError from '@fastify/error'

/**
 * The API's own errors. Each carries the HTTP `statusCode` and the stable `code` that appears in the
 * error envelope; the same codes as API A, so clients of either read errors the same way.
 */
export const ApiErrors = {
  /** 400: a path id that is not a positive integer. */
  InvalidId: createError('INVALID_ID', 'id must be a positive integer', 400),
  /** 401: no `Authorization` header. */
  Unauthenticated: createError('UNAUTHENTICATED', 'authentication required: send Authorization: Bearer <token>', 401),
  /** 401: a header that is not `Bearer <jwt>`, or a token that is forged, expired or no longer valid. */
  InvalidToken: createError('INVALID_TOKEN', '%s', 401),
  /** 401: login with an unknown username or a wrong password (one answer for both). */
  InvalidCredentials: createError('INVALID_CREDENTIALS', 'invalid username or password', 401),
  /** 403: an authenticated caller acting on another account. */
  Forbidden: createError('FORBIDDEN', 'you may only access your own account', 403),
  /** 404: no such resource. */
  NotFound: createError('NOT_FOUND', '%s', 404),
  /** 429: too many attempts from one address; `Retry-After` says when to try again. */
  RateLimited: createError('RATE_LIMITED', 'too many requests, retry later', 429),
  /** 503: the database cannot be reached; clients retry after `Retry-After` seconds. */
  Unavailable: createError('UNAVAILABLE', 'service temporarily unavailable, retry later', 503),
}

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5

const ValidationFailedBase = createError('VALIDATION_FAILED', 'request validation failed', 400)

/**
 * A rule checked in code rather than in a schema (a byte length); shaped like Fastify's validation
 * errors so the error handler lists it in `errors[]` like the others.
 */
export function validationFailed(field: string, rule: string, message: string) {
  return Object.assign(new ValidationFailedBase(), {
    validation: [{ instancePath: field === '' ? '' : `/${field}`, keyword: rule, message, params: {} }],
    validationContext: 'body',
  })
}
