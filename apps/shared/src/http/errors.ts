/** One failed rule of a request, as listed in `errors[]`. */
export interface FieldError {
  /** The field, as a dotted path into its source (`email`, `items.0.name`) or the path parameter's name (`id`). */
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
 * The error catalogue both example APIs answer with: every `code`, the one status it comes with, and when.
 * The same table as the repository README's (`tooling/reliability/test/error-catalogue.test.ts` sends both
 * APIs the same mistakes). API A adds `INVALID_CURSOR` (its lists have cursors) and words
 * `VALIDATION_FAILED` for its query parameters too.
 */
export const sharedCatalogue = {
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

/** The error codes both APIs answer with. */
export type SharedErrorCode = keyof typeof sharedCatalogue

/** Codes for any other 4xx a plugin or Fastify answers with, by status; anything else is a 400. */
export const codeByStatus: Readonly<Record<number, SharedErrorCode>> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
}

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

/** The VALIDATION_FAILED message: each field and rule in words (`password must be at least 8 characters`). */
export const validationMessage = (errors: readonly FieldError[]) =>
  errors.map((e) => `${e.field || 'request body'} ${e.message}`).join('; ')
