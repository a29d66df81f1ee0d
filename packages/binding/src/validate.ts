import type { TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { boundedErrors } from './bounded-errors.js'
import { boundFormats } from './bounded-formats.js'
import { isRecordSchema } from './decode-record.js'
import { ValidationError, type ValidationIssue } from './errors.js'
import { isObjectSchema } from './schema.js'
import { plainIssues } from './validation-messages.js'

/** Compiled validators by schema; `null` for schemas the struct validator does not check. */
const validators = new WeakMap<TSchema, Validator | null>()

// The last schema asked and its validator, first: a route checks the same schema on every request.
let lastSchema: TSchema | undefined
let lastValidator: Validator | null = null

/** The compiled validator of `schema` (compiled now when new: a route compiles it at boot). */
export function validatorOf(schema: TSchema): Validator | null {
  if (schema === lastSchema) return lastValidator
  let validator = validators.get(schema)
  if (validator === undefined) {
    // maps are not structs: Fiber's validator does not run for them
    boundFormats()
    validator = isObjectSchema(schema) && !isRecordSchema(schema) ? Compile(schema) : null
    validators.set(schema, validator)
  }
  lastSchema = schema
  lastValidator = validator
  return validator
}

/**
 * Checks a bound struct against `schema`'s constraints with TypeBox's compiled validator
 * (compiled once per schema; maps and non-object schemas pass); throws a {@link ValidationError}
 * for `source` listing every failure (`subject` names where each is, as in {@link ValidationError}).
 */
export function assertValid(value: unknown, schema: TSchema, source: string, subject?: (path: string) => string): void {
  const validator = validatorOf(schema)
  if (validator === null || validator.Check(value)) return
  const validation: ValidationIssue[] = boundedErrors(validator, schema, value).map((e) => ({
    instancePath: e.instancePath,
    keyword: e.keyword,
    message: e.message,
    params: e.params as Record<string, unknown>,
  }))
  throw new ValidationError(source, plainIssues(validation), subject)
}
