import { type TSchema, Type } from 'typebox'
import { type ErrorCode, errorCodes, type FieldError } from './errors.js'

export type { FieldError } from './errors.js'

/** Every successful JSON response. */
export interface SuccessEnvelope<T> {
  status: 'success'
  message: string
  data: T
}

/** Every error response: a stable `code`, a message for people, and details where there are some. */
export interface ErrorEnvelope {
  status: 'error'
  code: ErrorCode
  message: string
  data: null
  /** The fields at fault: always on `VALIDATION_FAILED`, on `CONFLICT` when a unique field is taken. */
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
  code: ErrorCode,
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

/** One field at fault, in `errors[]` (`#/components/schemas/FieldError`). */
export const FieldErrorSchema = Type.Object(
  {
    field: Type.String({ description: 'dotted path of the field in the body (`email`); empty for the body itself' }),
    rule: Type.String({
      description: 'the rule it breaks: `required`, `minLength`, `pattern`, `maxBytes`, `unique`...',
    }),
    message: Type.String({ description: 'the rule in words, for people' }),
  },
  { $id: 'FieldError' },
)

/** The error envelope (`#/components/schemas/ErrorEnvelope`); each response narrows `code` to its own. */
export const ErrorEnvelopeSchema = Type.Object(
  {
    status: Type.Literal('error'),
    code: Type.String({ enum: errorCodes, description: 'stable machine-readable code (see the error catalogue)' }),
    message: Type.String({ description: 'what went wrong, for people' }),
    data: Type.Null(),
    errors: Type.Optional(Type.Array(Type.Ref('FieldError'))),
    retry_after: Type.Optional(Type.Integer({ description: 'seconds; also sent as the Retry-After header' })),
  },
  { $id: 'ErrorEnvelope' },
)
