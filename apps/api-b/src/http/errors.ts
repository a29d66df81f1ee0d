import createError from '@fastify/error'

/** One failed rule of a request field, as listed in `errors[]`. */
export interface FieldError {
  /** The field, as a dotted path into the body or the path parameter's name (`username`, `id`). */
  field: string
  /** The rule that failed: a JSON Schema keyword (`minLength`, `format`, `required`, ...) or `unique`. */
  rule: string
  message: string
}

/** One row of the error catalogue: the status a code always comes with, and when it is answered. */
export interface CatalogueEntry {
  status: number
  when: string
  /** `WWW-Authenticate` value sent with the code (every 401 names the scheme that would succeed). */
  challenge?: string
}

const bearer = 'Bearer realm="api"'

/**
 * The error catalogue: every `code` this API answers with, the one status it comes with, and when. The same
 * table as the repository README's and API A's (`tooling/reliability/test/error-catalogue.test.ts` sends both
 * APIs the same mistakes), less API A's `INVALID_CURSOR`: there are no lists here.
 */
export const errorCatalogue = {
  VALIDATION_FAILED: {
    status: 400,
    when: 'a body field is missing, has the wrong type, breaks a rule or is not accepted; `errors[]` names each',
  },
  BAD_REQUEST: {
    status: 400,
    when:
      'the body is not JSON or not a JSON object; a value cannot be stored; the URL is malformed; the request is not ' +
      'valid HTTP, or ended before its body was complete',
  },
  INVALID_ID: { status: 400, when: 'the `{id}` of the path is not a positive 32-bit integer' },
  UNAUTHENTICATED: { status: 401, when: 'no `Authorization` header', challenge: bearer },
  INVALID_TOKEN: {
    status: 401,
    when: 'the `Authorization` header is not `Bearer <access_token>`, or the token is forged, expired or revoked',
    challenge: `${bearer}, error="invalid_token"`,
  },
  INVALID_CREDENTIALS: {
    status: 401,
    when: 'login with an unknown account or a wrong password (one answer for both)',
    challenge: bearer,
  },
  FORBIDDEN: { status: 403, when: "the path names another user's account, or a resource the caller does not own" },
  NOT_FOUND: { status: 404, when: 'no such route, or the resource of the path does not exist' },
  METHOD_NOT_ALLOWED: { status: 405, when: 'the path exists, but not with this method; `Allow` lists its methods' },
  REQUEST_TIMEOUT: {
    status: 408,
    when: 'the request did not all arrive within `REQUEST_TIMEOUT_MS`; the connection is closed',
  },
  CONFLICT: {
    status: 409,
    when: 'a unique field is taken (`errors[]` names it), or a resource the request refers to is gone',
  },
  PAYLOAD_TOO_LARGE: { status: 413, when: 'the body is larger than `BODY_LIMIT`' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, when: 'a body not sent as `application/json`' },
  RATE_LIMITED: {
    status: 429,
    when: 'too many requests or password checks from one address or against one account; `Retry-After` says when',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    when: 'the URL and headers together are larger than the server reads (16 KB); the connection is closed',
  },
  INTERNAL: { status: 500, when: 'a fault of the server; the body never holds a stack, SQL or driver text' },
  UNAVAILABLE: {
    status: 503,
    when: 'the database is unreachable or too slow, the server is shutting down, or password checks are queued',
  },
} as const satisfies Record<string, CatalogueEntry>

/** Stable machine-readable error codes of this API. */
export type ErrorCode = keyof typeof errorCatalogue

/** Every code, in catalogue order. */
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[]

/**
 * The catalogue's message style: lower case, what went wrong and what to send instead; never a pattern, a
 * schema keyword or a parser's wording.
 */
export const messages = {
  notJson: 'request body is not valid JSON',
  notAnObject: 'request body must be a JSON object',
  unstorable: 'a value in the request cannot be stored',
  badUrl: 'the URL is malformed: check its percent-encoding',
  paramTooLong: 'the URL is malformed: a path parameter is too long',
  notHttp: 'the request is not valid HTTP: check its URL, its headers and how its body is framed',
  incomplete: 'the request ended before its body was complete',
  requestTimeout: (seconds: number) => `the request did not arrive in time: send all of it within ${seconds} s`,
  headersTooLarge: (bytes: number) => `the URL and headers are too large: send at most ${bytes} bytes of them`,
  invalidId: 'id must be a positive integer',
  unauthenticated: 'authentication required: send Authorization: Bearer <access_token>',
  invalidToken: (reason: string) => `invalid token: ${reason}`,
  ownAccountOnly: 'you may only access your own account',
  routeNotFound: (method: string, path: string) => `route ${method} ${path} not found`,
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    `method ${method} not allowed on ${path}; allowed: ${allowed.join(', ')}`,
  taken: (field: string) => `${field} is already taken`,
  tooLarge: (limit: number) => `request body is too large: send at most ${limit} bytes`,
  notJsonMediaType: 'send the body as JSON, with Content-Type: application/json',
  tooManyRequests: (seconds: number) => `too many requests; retry in ${seconds} s`,
  tooManyPasswordAttempts: (seconds: number) => `too many password attempts; retry in ${seconds} s`,
  databaseUnavailable: (seconds: number) => `the database is unavailable; retry in ${seconds} s`,
  internal: 'internal server error',
} as const

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

/** The VALIDATION_FAILED message: each field and rule in words (`password must be at least 8 characters`). */
export const validationMessage = (errors: readonly FieldError[]) =>
  errors.map((e) => `${e.field || 'request body'} ${e.message}`).join('; ')
