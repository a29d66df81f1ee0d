import { type TSchema, Type } from 'typebox'

/** The largest id a `serial` column holds. */
export const MAX_ID = 2_147_483_647

/** `:id` path parameter: a positive 32-bit integer. */
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID }) })

const FieldErrorSchema = Type.Object({ field: Type.String(), rule: Type.String(), message: Type.String() })

/** The error envelope, as documented in OpenAPI. */
export const ErrorEnvelopeSchema = Type.Object(
  {
    status: Type.Literal('error'),
    code: Type.String({ description: 'stable machine-readable code, e.g. VALIDATION_FAILED' }),
    message: Type.String(),
    data: Type.Null(),
    errors: Type.Optional(Type.Array(FieldErrorSchema)),
    retry_after: Type.Optional(Type.Integer({ description: 'seconds; also sent as the Retry-After header' })),
  },
  { $id: 'ErrorEnvelope' },
)

/** A success envelope around `data`. */
export function SuccessEnvelopeSchema<T extends TSchema>(data: T, meta?: TSchema) {
  return Type.Object({
    status: Type.Literal('success'),
    message: Type.String(),
    data,
    ...(meta ? { meta } : {}),
  })
}

/** Response schemas for a route: its success bodies plus the error envelope for every 4xx/5xx. */
export function responses(success: Record<number, TSchema>) {
  const error = Type.Ref('ErrorEnvelope')
  return { ...success, '4xx': error, '5xx': error }
}
