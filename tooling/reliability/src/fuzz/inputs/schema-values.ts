import fc from 'fast-check'
import { hostileOnly, hugeString, spliced } from './hostile-text.js'
import { deepJson, hostileNumbers, invalidBytesMark, wrongTypes } from './raw-json.js'

/** The part of JSON Schema (as OpenAPI 3.0 and TypeBox write it) the generators read. */
export interface JsonSchema {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  format?: string
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number | boolean
  exclusiveMaximum?: number | boolean
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  nullable?: boolean
  default?: unknown
  /** Only before `dereference`. */
  $ref?: string
}

const typeOf = (schema: JsonSchema): string | undefined => {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type
  if (t) return t
  if (schema.properties) return 'object'
  if (schema.items) return 'array'
  return undefined
}

const cap = (max: number | undefined, limit: number) => Math.min(max ?? limit, limit)

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0
  const maxLength = cap(schema.maxLength, 40)
  const fits = (s: string) => s.length >= minLength && s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY)
  if (schema.format === 'email' || /@/.test(schema.pattern ?? '')) {
    return fc
      .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.stringMatching(/^[a-z]{1,10}$/))
      .map(([local, host]) => `${local}@${host}.test`)
  }
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
  if (schema.pattern) {
    // Anchored character-class patterns ("^[A-Za-z0-9_.-]+$") generate quickly; the length filter is cheap.
    return fc
      .stringMatching(new RegExp(schema.pattern), { size: 'small' })
      .map((s) => (s.length > maxLength ? s.slice(0, maxLength) : s))
      .filter(fits)
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) })
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 0)
  const max = Math.max(min, schema.maximum ?? min + 1_000)
  // Small values are favoured: they are the ids and amounts that exist.
  const small = Math.min(max, min + 10)
  return integer
    ? fc.oneof({ weight: 3, arbitrary: fc.integer({ min, max: small }) }, fc.integer({ min, max }))
    : fc.double({ min, max, noNaN: true })
}

/** A value the schema accepts (as far as the generators can tell), for getting past validation. */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum)
  if (schema.const !== undefined) return fc.constant(schema.const)
  const choice = schema.anyOf ?? schema.oneOf
  if (choice && choice.length > 0) return fc.oneof(...choice.map(validValue))
  if (schema.allOf?.[0]) return validValue(schema.allOf[0])
  switch (typeOf(schema)) {
    case 'string':
      return validString(schema)
    case 'integer':
      return validNumber(schema, true)
    case 'number':
      return validNumber(schema, false)
    case 'boolean':
      return fc.boolean()
    case 'array':
      return fc.array(schema.items ? validValue(schema.items) : fc.string(), {
        minLength: schema.minItems ?? 0,
        maxLength: cap(schema.maxItems, 4),
      })
    case 'object':
      return validObject(schema).map((entries) => Object.fromEntries(entries))
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean())
  }
}

/** The required properties of an object schema and some of the optional ones, each with a valid value. */
export function validObject(schema: JsonSchema): fc.Arbitrary<[string, unknown][]> {
  const properties = Object.entries(schema.properties ?? {})
  const required = new Set(schema.required ?? [])
  const parts = properties.map(([name, inner]) => {
    const value = validValue(inner).map((v): [string, unknown] => [name, v])
    return required.has(name) ? value.map((e) => [e]) : fc.option(value, { freq: 2 }).map((e) => (e ? [e] : []))
  })
  return fc.tuple(...parts).map((lists) => lists.flat() as [string, unknown][])
}

/**
 * A hostile value for a field, as JSON text: for strings mostly a valid string with a control, NUL or lone
 * surrogate inside (so patterns and lengths still pass and the value reaches the handler), or 1 MiB of
 * text, or invalid UTF-8 bytes (`invalidBytesMark`); for numbers the literals no int32, int64 or double
 * holds; for any field a wrong type or deep nesting.
 */
export function hostileValue(schema: JsonSchema): fc.Arbitrary<string> {
  const type = typeOf(schema)
  const anyField = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...wrongTypes) },
    { weight: 1, arbitrary: deepJson },
  )
  if (type === 'string') {
    const valid = validString(schema)
    return fc.oneof(
      { weight: 8, arbitrary: valid.chain(spliced).map((s) => JSON.stringify(s)) },
      { weight: 2, arbitrary: hostileOnly.map((s) => JSON.stringify(s)) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(valid, fc.nat(40))
          .map(([s, at]) => `"${JSON.stringify(s).slice(1, -1).slice(0, at)}${invalidBytesMark}"`),
      },
      { weight: 1, arbitrary: fc.constantFrom(...hostileNumbers) },
      { weight: 1, arbitrary: anyField },
    )
  }
  if (type === 'integer' || type === 'number') {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...hostileNumbers) },
      { weight: 2, arbitrary: hugeString.map((s) => JSON.stringify(s.slice(0, 1000))) },
      { weight: 2, arbitrary: anyField },
    )
  }
  return fc.oneof(
    { weight: 3, arbitrary: anyField },
    { weight: 1, arbitrary: fc.constantFrom(...hostileNumbers) },
    { weight: 1, arbitrary: hostileOnly.map((s) => JSON.stringify(s)) },
  )
}

/** A path or query parameter's text: valid, or hostile (controls, surrogates, huge, out-of-range numbers). */
export function hostileParameter(schema: JsonSchema): fc.Arbitrary<string> {
  const valid = validValue(schema).map((v) => String(v))
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 3, arbitrary: valid.chain(spliced) },
    { weight: 2, arbitrary: fc.constantFrom(...hostileNumbers) },
    { weight: 1, arbitrary: hostileOnly },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '[]', '{}', 'null', 'true', '0x10', '1e3', '01') },
  )
}
