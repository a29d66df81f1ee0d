import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'
import type { BindingConfig } from './config.js'
import { BindingSetupError } from './errors.js'
import { isFileSchema, isObjectSchema, isPlainObject, node } from './schema.js'

/** Schemas whose defaults were found valid (each is checked once). */
const checked = new WeakSet<object>()

/**
 * Throws a `BindingSetupError` (`WEFT_BAD_DEFAULT`) when a field's `default` does not pass the
 * field's own schema (`Type.Integer({ default: 'zz' })`, `Type.String({ minLength: 3, default: '' })`):
 * binding fills a missing field with its default before validating, so every request without the
 * field would be refused with a 400 for the schema author's mistake. Called where a schema is first
 * compiled: at boot for a route schema, at the first call for one used in a handler. Fiber's list
 * form (`default: 'a|b'` on an array) is converted as a request's value is, and not checked here; an
 * app's own `structValidator` has rules of its own, so its schemas are not checked either.
 */
export function checkDefaults(schema: TSchema, config: BindingConfig): void {
  if (config.structValidator !== undefined || checked.has(schema)) return
  walk(schema, '')
  checked.add(schema)
}

function walk(schema: TSchema, path: string): void {
  const n = node(schema)
  if (isFileSchema(schema)) return
  if (isObjectSchema(schema)) {
    for (const [prop, child] of Object.entries(n.properties ?? {})) {
      const at = path === '' ? prop : `${path}.${prop}`
      checkOne(child, at)
      walk(child, at)
    }
  } else if (n.type === 'array' && typeof n.items === 'object' && n.items !== null) {
    walk(n.items, `${path}[]`)
  }
}

/**
 * The value a missing field gets: its `default`, and when that is an object, the defaults of the
 * object's own fields filled in where it has none (at any depth), as Fastify's Ajv fills them
 * (`default: {}` on an object whose fields have defaults). Worked out once, when a schema is compiled.
 */
export function defaultValueOf(schema: TSchema): unknown {
  return withFieldDefaults(schema, node(schema).default)
}

function withFieldDefaults(schema: TSchema, value: unknown): unknown {
  if (!isObjectSchema(schema) || !isPlainObject(value)) return value
  const out: Record<string, unknown> = { ...value }
  for (const [prop, child] of Object.entries(node(schema).properties ?? {})) {
    const filled = withFieldDefaults(child, out[prop] === undefined ? node(child).default : out[prop])
    if (filled !== undefined) out[prop] = filled
  }
  return out
}

function checkOne(schema: TSchema, path: string): void {
  const value = defaultValueOf(schema)
  if (value === undefined || (node(schema).type === 'array' && typeof value === 'string')) return
  if (Value.Check(schema, value)) return
  const [first] = Value.Errors(schema, value)
  const why =
    first === undefined
      ? ''
      : ` (${first.instancePath === '' ? '' : `${first.instancePath.slice(1)} `}${first.message})`
  throw new BindingSetupError(
    'WEFT_BAD_DEFAULT',
    `the default ${JSON.stringify(value)} of field "${path}" does not pass the field's own schema${why}: every request without the field would be refused`,
  )
}
