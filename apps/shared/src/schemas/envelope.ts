import { type TSchema, Type } from 'typebox'

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

/**
 * The error envelope (`#/components/schemas/ErrorEnvelope`) with the API's codes; each response narrows `code`
 * to its own.
 */
export function errorEnvelopeSchema(codes: readonly string[]) {
  return Type.Object(
    {
      status: Type.Literal('error'),
      code: Type.String({ enum: [...codes], description: 'stable machine-readable code (see the error catalogue)' }),
      message: Type.String({ description: 'what went wrong, for people' }),
      data: Type.Null(),
      errors: Type.Optional(Type.Array(Type.Ref('FieldError'))),
      retry_after: Type.Optional(Type.Integer({ description: 'seconds; also sent as the Retry-After header' })),
    },
    { $id: 'ErrorEnvelope' },
  )
}

/** The JSON Schema of a success envelope around `data`, with `meta` for lists. */
export function SuccessEnvelopeSchema<T extends TSchema>(data: T, meta?: TSchema) {
  return Type.Object({
    status: Type.Literal('success'),
    message: Type.String(),
    data,
    ...(meta ? { meta } : {}),
  })
}
