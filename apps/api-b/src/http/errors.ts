import createError from '@fastify/error'
import { type FieldError, messages, sharedCatalogue } from '@weft/api-shared/http/errors'

export { type CatalogueEntry, type FieldError, messages, validationMessage } from '@weft/api-shared/http/errors'

/** The error catalogue of this API: the one both example APIs share (`@weft/api-shared`); it has no lists, so no cursors. */
export const errorCatalogue = sharedCatalogue

/** Stable machine-readable error codes of this API. */
export type ErrorCode = keyof typeof errorCatalogue

/** Every code, in catalogue order. */
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[]

/** Declares the error class of a catalogue code: its status is the catalogue's. */
const define = (code: ErrorCode, message = '%s') => createError(code, message, errorCatalogue[code].status)

/**
 * The API's own errors. Each carries the catalogue's `statusCode` for its `code`, which appears in the error
 * envelope; a `%s` message is given where the error is raised.
 */
export const ApiErrors = {
  /** 401: no `Authorization` header. */
  Unauthenticated: define('UNAUTHENTICATED', messages.unauthenticated),
  /** 401: a header that is not `Bearer <jwt>`, or a token that is forged, expired or no longer valid. */
  InvalidToken: define('INVALID_TOKEN'),
  /** 401: login with an unknown username or a wrong password (one answer for both). */
  InvalidCredentials: define('INVALID_CREDENTIALS', 'username or password is incorrect'),
  /** 403: an authenticated caller acting on another account. */
  Forbidden: define('FORBIDDEN', messages.ownAccountOnly),
  /** 404: no such resource. */
  NotFound: define('NOT_FOUND'),
  /** 415: a body that is not JSON. */
  UnsupportedMediaType: define('UNSUPPORTED_MEDIA_TYPE', messages.notJsonMediaType),
  /** 429: too many attempts; `retryAfter` seconds go out as `Retry-After`. */
  RateLimited: define('RATE_LIMITED'),
  /** 503: the database cannot be reached; clients retry after `retryAfter` seconds. */
  Unavailable: define('UNAVAILABLE'),
}

/** Seconds a client should wait before retrying after a 503 of the database. */
export const RETRY_AFTER_SECONDS = 5

/** 401 INVALID_TOKEN saying why (`invalid token: token has expired`). */
export const invalidToken = (reason: string) => new ApiErrors.InvalidToken(messages.invalidToken(reason))

/** 429 RATE_LIMITED: the message and the seconds to wait. */
export const rateLimited = (message: string, retryAfter: number) =>
  Object.assign(new ApiErrors.RateLimited(message), { retryAfter })

/** 503 UNAVAILABLE with the seconds to wait; the database's by default. */
export const unavailable = (retryAfter = RETRY_AFTER_SECONDS, message = messages.databaseUnavailable(retryAfter)) =>
  Object.assign(new ApiErrors.Unavailable(message), { retryAfter })

const ValidationFailedBase = define('VALIDATION_FAILED', 'request validation failed')

/**
 * A rule checked in code rather than in a schema (a byte length, the current password): 400
 * VALIDATION_FAILED with the field, the rule and its message as given, listed in `errors[]`.
 */
export function validationFailed(field: string, rule: string, message: string) {
  return Object.assign(new ValidationFailedBase(), { fieldErrors: [{ field, rule, message }] as FieldError[] })
}
