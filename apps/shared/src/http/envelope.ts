import type { FieldError } from './errors.js'

/**
 * The response contract of both example APIs: every JSON body is an envelope. Success bodies carry `data` (null
 * when there is nothing to return) and list endpoints add `meta`; error bodies add a stable `code`.
 *
 * @example
 * { "status": "success", "message": "product created", "data": { "id": 1, ... } }
 * { "status": "error", "code": "NOT_FOUND", "message": "product 9 not found", "data": null }
 */
export interface SuccessEnvelope<T> {
  status: 'success'
  message: string
  data: T
  meta?: Record<string, unknown>
}

/** Every error response: a stable `code` of the API's catalogue, a message for people, details where there are some. */
export interface ErrorEnvelope<Code extends string = string> {
  status: 'error'
  code: Code
  message: string
  data: null
  /** The fields at fault: always on `VALIDATION_FAILED`, on `CONFLICT` when a unique field is taken. */
  errors?: FieldError[]
  /** Seconds to wait before retrying; present on 429 and 503 alongside the `Retry-After` header. */
  retry_after?: number
}

/** Builds a success envelope. */
export function success<T>(message: string, data: T, meta?: Record<string, unknown>): SuccessEnvelope<T> {
  return meta ? { status: 'success', message, data, meta } : { status: 'success', message, data }
}

/** Builds an error envelope; `extra` adds `errors` or `retry_after`. */
export function failure<Code extends string>(
  code: Code,
  message: string,
  extra: Pick<ErrorEnvelope, 'errors' | 'retry_after'> = {},
): ErrorEnvelope<Code> {
  return { status: 'error', code, message, data: null, ...extra }
}
