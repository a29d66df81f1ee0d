import type { TSchema } from 'typebox'

// The values route schemas bound (request.query, request.body...), with the schema that bound each:
// `bind().query(Schema)` in the handler of a route whose `schema.querystring` is that same Schema
// finds the part already bound, and returns it instead of reading property names as wire names.
const bound = new WeakMap<object, TSchema>()

/** Notes that `value` is the result of binding a request part with `schema`. */
export function noteBound(value: unknown, schema: TSchema): void {
  if (typeof value === 'object' && value !== null) bound.set(value, schema)
}

/** Whether `value` was bound with `schema` (by a route schema). */
export function isBoundBy(value: unknown, schema: TSchema): boolean {
  return typeof value === 'object' && value !== null && bound.get(value) === schema
}
