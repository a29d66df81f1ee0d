/** One failed rule of a request: `field` is the dotted path in its source (`email`, `items.0.name`). */
export interface FieldError {
  field: string
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
 * table as the repository README's and API B's (`tooling/reliability/test/error-catalogue.test.ts` sends both
 * APIs the same mistakes); API B has no cursors, so no `INVALID_CURSOR`.
 */
export const errorCatalogue = {
  VALIDATION_FAILED: {
    status: 400,
    when:
      'a body field or query parameter is missing, has the wrong type, breaks a rule or is not accepted; `errors[]` ' +
      'names each',
  },
  BAD_REQUEST: {
    status: 400,
    when:
      'the body is not JSON or not a JSON object; a value cannot be stored; the URL is malformed; the request is not ' +
      'valid HTTP, or ended before its body was complete',
  },
  INVALID_ID: { status: 400, when: 'the `{id}` of the path is not a positive 32-bit integer' },
  INVALID_CURSOR: {
    status: 400,
    when: 'the cursor is undecodable, tampered with, longer than 2048 characters, or made for another sort',
  },
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

/** Extra parts of an error response beyond status, code and message. */
export interface ApiErrorExtras {
  errors?: FieldError[]
  retryAfter?: number
  /** Headers of this answer besides the catalogue's (`Allow` with a 405). */
  headers?: Record<string, string>
}

/**
 * An error the API answers on purpose: Fastify-compatible (`statusCode`, `code`, `message`), its status
 * always the catalogue's for its code, rendered into the error envelope by the one error handler.
 */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly statusCode: number
  readonly errors: FieldError[] | undefined
  readonly retryAfter: number | undefined
  readonly headers: Record<string, string>

  constructor(
    readonly code: ErrorCode,
    message: string,
    extras: ApiErrorExtras = {},
  ) {
    super(message)
    this.statusCode = errorCatalogue[code].status
    this.errors = extras.errors
    this.retryAfter = extras.retryAfter
    this.headers = extras.headers ?? {}
  }
}

export const unauthenticated = () => new ApiError('UNAUTHENTICATED', messages.unauthenticated)

export const invalidToken = (reason: string) => new ApiError('INVALID_TOKEN', messages.invalidToken(reason))

export const invalidCredentials = () => new ApiError('INVALID_CREDENTIALS', 'email or password is incorrect')

export const forbidden = (message: string) => new ApiError('FORBIDDEN', message)

export const notFound = (message: string) => new ApiError('NOT_FOUND', message)

/** 405 with `Allow` (RFC 9110 §15.5.6): the path exists, the method does not. */
export const methodNotAllowed = (method: string, path: string, allowed: readonly string[]) =>
  new ApiError('METHOD_NOT_ALLOWED', messages.methodNotAllowed(method, path, allowed), {
    headers: { allow: allowed.join(', ') },
  })

/** 400 VALIDATION_FAILED: the message names each field and rule (`password must be at least 8 characters`). */
export const validationFailed = (errors: FieldError[]) =>
  new ApiError('VALIDATION_FAILED', errors.map((e) => `${e.field || 'request body'} ${e.message}`).join('; '), {
    errors,
  })

/** 503 UNAVAILABLE with the seconds to wait (`Retry-After`); the database's by default. */
export const unavailable = (retryAfter = 5, message = messages.databaseUnavailable(retryAfter)) =>
  new ApiError('UNAVAILABLE', message, { retryAfter })

/** 429 RATE_LIMITED with the seconds to wait (`Retry-After`). */
export const rateLimited = (message: string, retryAfter: number) =>
  new ApiError('RATE_LIMITED', message, { retryAfter })
