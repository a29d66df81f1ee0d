import { Type } from 'typebox'

/** The largest id a `serial` column holds. */
export const MAX_ID = 2_147_483_647

/** `:id` path parameter: a positive 32-bit integer. */
export const IdParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'a positive 32-bit integer' }),
})
