import { type TSchema, Type } from 'typebox'

/** One failed rule of a request field, as listed in `errors[]`. */
export interface FieldError {
  /** The field, as a dotted path into the body or the path parameter's name (`username`, `id`). */
  field: string
  /** The rule that failed: a JSON Schema keyword (`minLength`, `format`, `required`, ...) or `unique`. */
  rule: string
  message: string
}

/** Every successful JSON response. */
export interface SuccessEnvelope<T> {
  status: 'success'
  message: string
  data: T
}

/** Every error response: a stable `code`, a message for people, and details where there are some. */
export interface ErrorEnvelope {
  status: 'error'
  code: string
  message: string
  data: null
  /** Per-field problems: present for `VALIDATION_FAILED` and `CONFLICT`. */
  errors?: FieldError[]
  /** Seconds to wait before retrying: present for `RATE_LIMITED` and `UNAVAILABLE` (also sent as `Retry-After`). */
  retry_after?: number
}

/** Wraps a result in the success envelope. */
export function success<T>(message: string, data: T): SuccessEnvelope<T> {
  return { status: 'success', message, data }
}

/** The error envelope; `extra` adds `errors` or `retry_after`. */
export function failure(
  code: string,
  message: string,
  extra: Pick<ErrorEnvelope, 'errors' | 'retry_after'> = {},
): ErrorEnvelope {
  return { status: 'error', code, message, data: null, ...extra }
}

/** The JSON Schema of a success envelope around `data` (response schemas and the OpenAPI document). */
export function SuccessEnvelopeSchema<T extends TSchema>(data: T) {
  return Type.Object({
    status: Type.Literal('success'),
    message: Type.String(),
    data,
  })
}

/** The JSON Schema of the error envelope (OpenAPI document). */
export const ErrorEnvelopeSchema = Type.Object(
  {
    status: Type.Literal('error'),
    code: Type.String({ examples: ['VALIDATION_FAILED'] }),
    message: Type.String(),
    data: Type.Null(),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), rule: Type.String(), message: Type.String() })),
    ),
    retry_after: Type.Optional(Type.Integer()),
  },
  { $id: 'ErrorEnvelope', title: 'Error envelope' },
)
