import type { ErrorCode, FieldError } from './errors.js'

export type { FieldError } from './errors.js'

/**
 * The response contract: every JSON body is an envelope. Success bodies carry `data` (null when there is
 * nothing to return) and list endpoints add `meta`; error bodies add a stable `code`.
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

export interface ErrorEnvelope {
  status: 'error'
  code: ErrorCode
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
