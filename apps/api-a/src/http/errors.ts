import {
  type CatalogueEntry,
  type FieldError,
  messages,
  sharedCatalogue,
  validationMessage,
} from '@weft/api-shared/http/errors'

export { type CatalogueEntry, type FieldError, messages } from '@weft/api-shared/http/errors'

const { VALIDATION_FAILED, BAD_REQUEST, INVALID_ID, ...rest } = sharedCatalogue

/**
 * The error catalogue of this API: the one both example APIs share (`@weft/api-shared`), plus
 * `INVALID_CURSOR` for the cursors of its lists, in the order the repository README lists them.
 */
export const errorCatalogue = {
  VALIDATION_FAILED: {
    status: VALIDATION_FAILED.status,
    when:
      'a body field or query parameter is missing, has the wrong type, breaks a rule or is not accepted; `errors[]` ' +
      'names each',
  },
  BAD_REQUEST,
  INVALID_ID,
  INVALID_CURSOR: {
    status: 400,
    when: 'the cursor is undecodable, tampered with, longer than 2048 characters, or made for another sort',
  },
  ...rest,
} as const satisfies Record<string, CatalogueEntry>

/** Stable machine-readable error codes of this API. */
export type ErrorCode = keyof typeof errorCatalogue

/** Every code, in catalogue order. */
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[]

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
  new ApiError('VALIDATION_FAILED', validationMessage(errors), { errors })

/** 503 UNAVAILABLE with the seconds to wait (`Retry-After`); the database's by default. */
export const unavailable = (retryAfter = 5, message = messages.databaseUnavailable(retryAfter)) =>
  new ApiError('UNAVAILABLE', message, { retryAfter })

/** 429 RATE_LIMITED with the seconds to wait (`Retry-After`). */
export const rateLimited = (message: string, retryAfter: number) =>
  new ApiError('RATE_LIMITED', message, { retryAfter })
