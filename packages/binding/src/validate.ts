import type { TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { ValidationError, type ValidationIssue } from './errors.js'

const validators = new WeakMap<TSchema, Validator>()

function validatorOf(schema: TSchema): Validator {
  let validator = validators.get(schema)
  if (validator === undefined) {
    validator = Compile(schema)
    validators.set(schema, validator)
  }
  return validator
}

/**
 * Checks `value` against `schema`'s constraints with TypeBox's compiled validator (compiled once
 * per schema); throws a {@link ValidationError} for `source` listing every failure.
 */
export function assertValid(value: unknown, schema: TSchema, source: string): void {
  const validator = validatorOf(schema)
  if (validator.Check(value)) return
  const validation: ValidationIssue[] = validator.Errors(value).map((e) => ({
    instancePath: e.instancePath,
    keyword: e.keyword,
    message: e.message,
    params: e.params as Record<string, unknown>,
  }))
  throw new ValidationError(source, validation)
}
