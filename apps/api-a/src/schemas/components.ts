import { errorEnvelopeSchema, FieldErrorSchema } from '@weft/api-shared/schemas/envelope'
import { errorCodes } from '../http/errors.js'
import { PaginationSchema, ProductSchema } from './products.js'
import { TokenPairSchema, UserSchema } from './users.js'

/**
 * The schemas the OpenAPI document names (`#/components/schemas/<$id>`): added to the app once, referenced by
 * the routes with `Type.Ref('<$id>')`.
 */
export const sharedSchemas = [
  FieldErrorSchema,
  errorEnvelopeSchema(errorCodes),
  UserSchema,
  TokenPairSchema,
  ProductSchema,
  PaginationSchema,
]
