import type { TSchema } from 'typebox'
import type { BindingConfig } from './config.js'
import { type Converter, FAIL, scalarConverter } from './convert.js'
import { BindError } from './errors.js'
import type { MapOptions, RawMap } from './map-types.js'
import { node, type SchemaNode, setProp } from './schema.js'

/**
 * How each value of a map-shaped target (`Type.Record(Type.String(), …)`, Fiber's
 * `map[string]string` / `map[string][]string`) is filled: `last` takes the last value sent under
 * the key, `all` every value, `one-or-all` a single value or, when several were sent, the list.
 */
type RecordPlan = { kind: 'record'; values: 'last' | 'all' | 'one-or-all'; convert: Converter; expected: string }

/** The value schema of a map-shaped object schema (no named properties), if `schema` is one. */
function valueSchemaOf(schema: TSchema): TSchema | undefined {
  const n = node(schema)
  if (n.type !== 'object' || (n.properties !== undefined && Object.keys(n.properties).length > 0)) return undefined
  const patterns = n.patternProperties as Record<string, TSchema> | undefined
  if (patterns !== undefined) {
    const values = Object.values(patterns)
    return values.length === 1 ? values[0] : undefined
  }
  const additional = n.additionalProperties
  return typeof additional === 'object' && additional !== null ? (additional as TSchema) : undefined
}

const records = new WeakMap<TSchema, boolean>()

/** True for map-shaped schemas: `Type.Record(Type.String(), …)` and objects of `additionalProperties` only. */
export function isRecordSchema(schema: TSchema): boolean {
  let record = records.get(schema)
  if (record === undefined) {
    record = valueSchemaOf(schema) !== undefined
    records.set(schema, record)
  }
  return record
}

function listItems(n: SchemaNode): TSchema | undefined {
  return n.type === 'array' ? n.items : undefined
}

/** The compiled record plan of `schema` (cached per schema under the configuration's plans). */
export function recordPlanFor(schema: TSchema, config: BindingConfig): RecordPlan {
  let byTag = config.plans.get(schema)
  if (byTag === undefined) {
    byTag = new Map()
    config.plans.set(schema, byTag)
  }
  let plan = byTag.get('record') as RecordPlan | undefined
  if (plan === undefined) {
    plan = compileRecord(valueSchemaOf(schema) as TSchema, config)
    byTag.set('record', plan)
  }
  return plan
}

function compileRecord(value: TSchema, config: BindingConfig): RecordPlan {
  const n = node(value)
  const items = listItems(n)
  if (items !== undefined) return { kind: 'record', values: 'all', ...scalarConverter(items, config) }
  const members = n.anyOf ?? []
  const list = members.find((m) => listItems(node(m)) !== undefined)
  const single = members.find((m) => listItems(node(m)) === undefined)
  if (list !== undefined && single !== undefined) {
    return { kind: 'record', values: 'one-or-all', ...scalarConverter(single, config) }
  }
  return { kind: 'record', values: 'last', ...scalarConverter(value, config) }
}

/**
 * Fiber's bracket rule for map keys: `a[b]` is `a.b`, `a[]` is `a`, and brackets that do not
 * pair up are an error (`'\u0000'`), whatever the target. Keys without `[` are kept as they are.
 */
export function normalizeBrackets(key: string): string {
  if (key.indexOf('[') === -1) return key
  let out = ''
  let open = 0
  for (let i = 0; i < key.length; i++) {
    const c = key[i] as string
    if (c === '[') {
      open++
      if (i + 1 < key.length && key[i + 1] !== ']') out += '.'
    } else if (c === ']') {
      open--
      if (open < 0) return '\u0000'
    } else out += c
  }
  return open === 0 ? out : '\u0000'
}

/**
 * Fills a map-shaped target from a raw request map: every key is kept (query and form keys in
 * Fiber's dotted form), on a fresh object (so `__proto__` is an ordinary key), values converted by
 * the record's value schema and split on commas with `enableSplittingOnParsers`.
 */
export function decodeRecord(plan: RecordPlan, map: RawMap, options: MapOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const rawKey in map) {
    const value = map[rawKey]
    if (value === undefined) continue
    const key = options.brackets ? normalizeBrackets(rawKey) : rawKey
    if (key === '\u0000') throw new BindError(options.source, rawKey, `unmatched brackets in key "${rawKey}"`)
    const previous = out[key]
    const raws: string[] = Array.isArray(previous) && Object.hasOwn(out, key) ? (previous as string[]) : []
    for (const item of typeof value === 'string' ? [value] : value) {
      if (options.split && item.indexOf(',') !== -1) {
        for (const part of item.split(',')) raws.push(options.trim ? part.trim() : part)
      } else raws.push(item)
    }
    setProp(out, key, raws)
  }
  for (const key of Object.keys(out)) setProp(out, key, finish(plan, out[key] as string[], options, key))
  return out
}

function finish(plan: RecordPlan, raws: string[], options: MapOptions, key: string): unknown {
  const convert = (raw: string) => {
    const value = plan.convert(raw)
    if (value === FAIL) throw new BindError(options.source, key, `${JSON.stringify(raw)} is not ${plan.expected}`)
    return value
  }
  if (plan.values === 'all' || (plan.values === 'one-or-all' && raws.length > 1)) return raws.map(convert)
  return convert(raws.length === 0 ? '' : (raws[raws.length - 1] as string))
}
