import type { TSchema } from 'typebox'
import type { BindingConfig, StructValidator } from './config.js'
import { isRecordSchema } from './decode-record.js'
import { ValidationError } from './errors.js'
import { isObjectSchema } from './schema.js'
import { assertValid } from './validate.js'

/**
 * `out` once the configuration's struct validator accepts it: TypeBox's compiled check by default,
 * the app's `structValidator` when it set one (maps pass as they are). Shared by `bind()` and the
 * route schemas Fastify validates through Weft, so that one failure reads the same on both paths.
 * `subject` names the source of each failing field where it is not `source` (all()).
 */
export function checkBound(
  config: BindingConfig,
  out: unknown,
  schema: TSchema,
  source: string,
  subject?: (path: string) => string,
): unknown {
  const validator = config.structValidator
  if (validator === undefined) {
    assertValid(out, schema, source, subject)
    return out
  }
  // maps are not structs: Fiber's validator does not run for them
  if (!isObjectSchema(schema) || isRecordSchema(schema)) return out
  return validateWith(validator, out, schema, source, subject)
}

async function validateWith(
  validator: StructValidator,
  out: unknown,
  schema: TSchema,
  source: string,
  subject: ((path: string) => string) | undefined,
): Promise<unknown> {
  try {
    await validator.validate(out, schema)
  } catch (err) {
    if (typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err
    const message = err instanceof Error ? err.message : String(err)
    throw new ValidationError(source, [{ instancePath: '', keyword: 'validate', message, params: {} }], subject)
  }
  return out
}
