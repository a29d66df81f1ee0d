import type { ErrorCode, FieldError } from './envelope.js'

/** Extra parts of an error response beyond status, code and message. */
export interface ApiErrorExtras {
  errors?: FieldError[]
  retryAfter?: number
  headers?: Record<string, string>
}

/**
 * An error the API answers on purpose: Fastify-compatible (`statusCode`, `code`, `message`), rendered
 * into the error envelope by the one error handler.
 */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly errors: FieldError[] | undefined
  readonly retryAfter: number | undefined
  readonly headers: Record<string, string>

  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    extras: ApiErrorExtras = {},
  ) {
    super(message)
    this.errors = extras.errors
    this.retryAfter = extras.retryAfter
    this.headers = extras.headers ?? {}
  }
}

const bearer = 'Bearer realm="api"'

export const unauthenticated = () =>
  new ApiError(401, 'UNAUTHENTICATED', 'authentication required: send Authorization: Bearer <access_token>', {
    headers: { 'www-authenticate': bearer },
  })

export const invalidToken = (reason: string) =>
  new ApiError(401, 'INVALID_TOKEN', `invalid token: ${reason}`, {
    headers: { 'www-authenticate': `${bearer}, error="invalid_token"` },
  })

export const invalidCredentials = () => new ApiError(401, 'INVALID_CREDENTIALS', 'email or password is incorrect')

export const forbidden = (message: string) => new ApiError(403, 'FORBIDDEN', message)

export const notFound = (message: string) => new ApiError(404, 'NOT_FOUND', message)

export const validationFailed = (errors: FieldError[]) =>
  new ApiError(400, 'VALIDATION_FAILED', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors })

export const unavailable = (retryAfter = 5) =>
  new ApiError(503, 'UNAVAILABLE', 'the database is unavailable; retry later', {
    retryAfter,
    headers: { 'retry-after': String(retryAfter) },
  })
