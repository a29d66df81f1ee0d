import type { FieldError } from '@weft/api-shared/http/errors'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { validationFailed } from './errors.js'

/** An integer as a query value: decimal digits, an optional sign (`2`, `-3`, `+7`, `007`). Linear, no backtracking. */
const INTEGER = /^[+-]?[0-9]+$/

const notInteger = (field: string): FieldError => ({
  field,
  rule: 'integer',
  message: 'must be an integer written in digits, such as 2',
})
const repeated = (field: string): FieldError => ({ field, rule: 'single', message: 'must be given once' })

/**
 * An `onRequest` hook that refuses with 400 VALIDATION_FAILED, naming each, the query parameters of `names` that
 * are present but not one integer: `abc`, `1.5`, `1e3`, an empty value, or the parameter given twice. The
 * document types them as integers; what is out of range is the handler's to clamp (or refuse).
 *
 * @example
 * app.get('/api/products', { onRequest: [integerQuery(['page', 'limit', 'offset']), list.hook] }, handler)
 */
export function integerQuery(names: readonly string[]) {
  return function checkIntegers(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const query = request.query as Record<string, unknown>
    let errors: FieldError[] | undefined
    for (const name of names) {
      const value = query[name]
      if (value === undefined || (typeof value === 'string' && INTEGER.test(value))) continue
      errors ??= []
      errors.push(Array.isArray(value) ? repeated(name) : notInteger(name))
    }
    done(errors ? validationFailed(errors) : undefined)
  }
}
