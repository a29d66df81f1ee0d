import type { TSchema } from 'typebox'
import { bindingSources } from './binding-source.js'
import type { BindingConfig } from './config.js'
import { type Converter, FAIL, type ScalarConverter, scalarConverter } from './convert.js'
import { checkDefaults, defaultValueOf } from './default-check.js'
import { BindingSetupError } from './errors.js'
import { isFileSchema, isObjectSchema, node, tagOf } from './schema.js'

/** How a field takes its raw values. */
export type Shape = 'scalar' | 'array' | 'object' | 'objects' | 'file' | 'files'

/** Everything binding needs to fill one property, compiled once per schema and tag. */
export type FieldPlan = {
  index: number
  /** Output property name. */
  prop: string
  /** The request key (the tag's value or the property name). */
  key: string
  shape: Shape
  /** Converts one raw string (the value of a scalar, an item of an array). */
  convert: Converter
  expected: string
  /** The nested plan of `object` and `objects` fields. */
  child: ObjectPlan | undefined
  optional: boolean
  hasDefault: boolean
  defaultValue: unknown
  /** The raw `bindingSource` option, for `all()`. */
  bindingSource: string | undefined
  schema: TSchema
}

/** The compiled plan of an object schema for one tag. */
export type ObjectPlan = {
  schema: TSchema
  tag: string
  fields: FieldPlan[]
  /** Field by exact key (null prototype). */
  byKey: Record<string, FieldPlan>
  /** Field by lower-cased key (null prototype). */
  byLower: Record<string, FieldPlan>
  fileFields: FieldPlan[]
  /** Split nested keys already seen (filled by decoding, bounded in size). */
  paths?: Map<string, string[] | string>
  /** The compiled build step of map decoding (made on first use; see map-compiled.ts). */
  build?: unknown
  /** The compiled exact-key fill of map decoding (made on first use; see map-exact.ts). */
  exact?: unknown
}

/**
 * The plan of `schema` for `tag` under `config`, compiled on first use and cached (per schema in a
 * WeakMap, so plans go away with their schemas).
 */
export function planFor(schema: TSchema, tag: string, config: BindingConfig): ObjectPlan {
  let byTag = config.plans.get(schema)
  if (byTag === undefined) {
    byTag = new Map()
    config.plans.set(schema, byTag)
  }
  let plan = byTag.get(tag) as ObjectPlan | undefined
  if (plan === undefined) {
    // a bad bindingSource list fails the schema's first compilation, whichever call it is for
    bindingSources(schema)
    checkDefaults(schema, config)
    plan = compileObject(schema, tag, config)
    byTag.set(tag, plan)
  }
  return plan
}

function compileObject(schema: TSchema, tag: string, config: BindingConfig): ObjectPlan {
  if (!isObjectSchema(schema)) {
    throw new BindingSetupError(
      'WEFT_SCHEMA_NOT_OBJECT',
      `query, form, uri, header and cookie binding need a Type.Object schema (at "${tag}")`,
    )
  }
  const n = node(schema)
  const required = new Set(n.required ?? [])
  const fields: FieldPlan[] = []
  const byKey: Record<string, FieldPlan> = Object.create(null)
  const byLower: Record<string, FieldPlan> = Object.create(null)
  for (const [prop, fieldSchema] of Object.entries(n.properties ?? {})) {
    const field = compileField(fields.length, prop, fieldSchema, tag, config)
    field.optional = !required.has(prop)
    fields.push(field)
    byKey[field.key] ??= field
    byLower[field.key.toLowerCase()] ??= field
  }
  const fileFields = fields.filter((f) => f.shape === 'file' || f.shape === 'files')
  return { schema, tag, fields, byKey, byLower, fileFields }
}

function compileField(index: number, prop: string, schema: TSchema, tag: string, config: BindingConfig): FieldPlan {
  const n = node(schema)
  const items = n.type === 'array' ? n.items : undefined
  let shape: Shape = 'scalar'
  let child: ObjectPlan | undefined
  let scalar: ScalarConverter = { convert: (raw) => raw, expected: 'a string' }
  if (isFileSchema(schema)) shape = 'file'
  else if (items !== undefined && isFileSchema(items)) shape = 'files'
  else if (items !== undefined && isObjectSchema(items)) {
    shape = 'objects'
    child = compileObject(items, tag, config)
  } else if (items !== undefined) {
    shape = 'array'
    scalar = scalarConverter(items, config)
  } else if (n.type === 'array') shape = 'array'
  else if (isObjectSchema(schema)) {
    shape = 'object'
    child = compileObject(schema, tag, config)
  } else scalar = scalarConverter(schema, config)
  const field: FieldPlan = {
    index,
    prop,
    key: tagOf(schema, tag) ?? prop,
    shape,
    convert: scalar.convert,
    expected: scalar.expected,
    child,
    optional: false,
    hasDefault: n.default !== undefined,
    defaultValue: defaultValueOf(schema),
    bindingSource: tagOf(schema, 'bindingSource'),
    schema,
  }
  if (shape === 'array' && typeof n.default === 'string') {
    // Fiber's `default:a|b|c` form for lists
    field.defaultValue = n.default.split('|').map((item) => {
      const value = scalar.convert(item)
      return value === FAIL ? item : value
    })
  }
  return field
}

/** A fresh copy of the field's default (arrays and objects are never shared between requests). */
export function defaultOf(field: FieldPlan): unknown {
  return copyDefault(field.defaultValue)
}

/** A schema default as a request may keep it: objects and arrays copied, other values as they are. */
export function copyDefault(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value
}
