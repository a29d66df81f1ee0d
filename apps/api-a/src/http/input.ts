import { bind } from '@weft/binding'
import type { FastifyRequest } from 'fastify'
import type { Static, TSchema } from 'typebox'
import { IdParams } from '../schemas/common.js'

/**
 * The JSON body, bound and checked against its schema by @weft/binding (a `ValidationError` →
 * 400 VALIDATION_FAILED, a `BindError` → 400 BAD_REQUEST). A request with no content at all (no body, or an
 * empty one sent as JSON) binds as `{}`, so the answer names the fields it lacks; content that is not
 * `application/json` is a 415.
 */
export function readBody<S extends TSchema>(request: FastifyRequest, schema: S): Promise<Static<S>> {
  return bind(request).json(schema, { requireContentType: request.body !== undefined })
}

/** The `:id` path parameter: a positive 32-bit integer (anything else → 400 INVALID_ID). */
export async function readId(request: FastifyRequest): Promise<number> {
  return (await bind(request).uri(IdParams)).id
}
