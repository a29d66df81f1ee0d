import type { Ctx } from '@weft/context'
import type { Static, TSchema } from 'typebox'

/**
 * The JSON body, bound and checked against `schema` by @weft/binding. A request with no content at all (no
 * body, or an empty one sent as JSON) binds as `{}`, so the answer names the fields it lacks (400
 * VALIDATION_FAILED); content that is not `application/json` is a 415.
 *
 * @example
 * const { current_password } = await jsonBody(c, DeleteUserBody)
 */
export function jsonBody<S extends TSchema>(c: Ctx, schema: S): Promise<Static<S>> {
  return c.bind().json(schema, { requireContentType: c.request().body !== undefined })
}
