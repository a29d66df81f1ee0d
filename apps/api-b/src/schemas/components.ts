import { errorEnvelopeSchema, FieldErrorSchema } from '@weft/api-shared/schemas/envelope'
import { errorCodes } from '../http/errors.js'
import { AccessToken, PublicUser } from './users.js'

/**
 * The schemas the OpenAPI document names (`#/components/schemas/<$id>`): added to the app once, referenced by
 * the routes with `Type.Ref('<$id>')`.
 */
export const sharedSchemas = [FieldErrorSchema, errorEnvelopeSchema(errorCodes), PublicUser, AccessToken]
