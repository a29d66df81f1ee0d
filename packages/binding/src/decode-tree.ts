import type { TSchema } from 'typebox'
import type { BindingConfig } from './config.js'
import { FAIL, scalarConverter } from './convert.js'
import { checkDefaults, defaultValueOf } from './default-check.js'
import { BindError, type BindSource } from './errors.js'
import { isFileSchema, isObjectSchema, isPlainObject, node, setProp, tagOf } from './schema.js'
import { type CompiledTree, compileTree } from './tree-compiled.js'
import type { Check, PropPlan, TreePlan } from './tree-plan.js'

/**
 * How a parsed body's value must look: `typed` bodies (JSON, MessagePack, CBOR) carry their own
 * types, which must match the schema; `text` bodies (XML) carry strings, converted like a query.
 */
export type TreeMode = 'typed' | 'text'

/** How one tree is decoded. */
export type TreeOptions = {
  source: BindSource
  config: BindingConfig
  mode: TreeMode
  defaults: boolean
}

const checks: Record<string, [Check, string]> = {
  integer: [(v) => typeof v === 'number' && Number.isInteger(v), 'an integer'],
  number: [(v) => typeof v === 'number', 'a number'],
  boolean: [(v) => typeof v === 'boolean', 'a boolean'],
  string: [(v) => typeof v === 'string' && isWellFormed(v), 'a string'],
  null: [(v) => v === null, 'null'],
}

// The cache key of each mode and tag, built once: the lookup runs on every bound body.
const cacheKeys: Record<TreeMode, Map<string, string>> = { typed: new Map(), text: new Map() }

/** A tree plan, and for typed bodies the same plan compiled to code (the path of every request). */
export type TreeDecoder = { plan: TreePlan; mode: TreeMode; compiled: CompiledTree | undefined }

/** The decoder of `schema` for `tag` (cached per schema, tag and mode). */
export function treeDecoderFor(schema: TSchema, tag: string, mode: TreeMode, config: BindingConfig): TreeDecoder {
  // the last decoder asked, first: a route binds the same schema on every request (`plans` is
  // replaced when the configuration's decoders change, and its decoders with it)
  const last = lastDecoder
  if (
    last !== undefined &&
    last.schema === schema &&
    last.tag === tag &&
    last.decoder.mode === mode &&
    last.plans === config.plans
  ) {
    return last.decoder
  }
  const decoder = lookupDecoder(schema, tag, mode, config)
  lastDecoder = { schema, tag, plans: config.plans, decoder }
  return decoder
}

let lastDecoder: { schema: TSchema; tag: string; plans: unknown; decoder: TreeDecoder } | undefined

function lookupDecoder(schema: TSchema, tag: string, mode: TreeMode, config: BindingConfig): TreeDecoder {
  let byTag = config.plans.get(schema)
  if (byTag === undefined) {
    byTag = new Map()
    config.plans.set(schema, byTag)
  }
  let cacheKey = cacheKeys[mode].get(tag)
  if (cacheKey === undefined) {
    cacheKey = `tree:${mode}:${tag}`
    cacheKeys[mode].set(tag, cacheKey)
  }
  let decoder = byTag.get(cacheKey) as TreeDecoder | undefined
  if (decoder === undefined) {
    checkDefaults(schema, config)
    const plan = compile(schema, tag, mode, config)
    decoder = { plan, mode, compiled: mode === 'typed' ? compileTree(plan) : undefined }
    byTag.set(cacheKey, decoder)
  }
  return decoder
}

/**
 * Decodes a parsed body with its decoder: the compiled code when it accepts the value, else the
 * plan (which says what does not fit, and where). `wellFormed`: the body's strings are known to
 * hold no lone surrogate (json-text.ts), so the compiled code need not test each one.
 */
export function decodeBody(
  decoder: TreeDecoder,
  value: unknown,
  source: BindSource,
  config: BindingConfig,
  defaults: boolean,
  wellFormed = false,
): unknown {
  if (decoder.compiled !== undefined) {
    const out = decoder.compiled(value, defaults, !config.ignoreUnknownKeys, wellFormed)
    if (out !== FAIL) return out
  }
  return decodeTree(decoder.plan, value, { source, config, mode: decoder.mode, defaults })
}

function compile(schema: TSchema, tag: string, mode: TreeMode, config: BindingConfig): TreePlan {
  const n = node(schema)
  if (isFileSchema(schema)) return { kind: 'any' }
  if (isObjectSchema(schema)) {
    const props: PropPlan[] = Object.entries(n.properties ?? {}).map(([prop, child]) => ({
      prop,
      key: tagOf(child, tag) ?? prop,
      plan: compile(child, tag, mode, config),
      hasDefault: node(child).default !== undefined,
      defaultValue: defaultValueOf(child),
    }))
    return { kind: 'object', props, keys: new Set(props.map((p) => p.key)) }
  }
  if (n.type === 'array') {
    return { kind: 'array', items: n.items === undefined ? undefined : compile(n.items, tag, mode, config) }
  }
  const typed = typeof n.type === 'string' ? checks[n.type] : undefined
  if (typed !== undefined) {
    const { convert } = scalarConverter(schema, config)
    return { kind: 'scalar', type: n.type as string, check: typed[0], convert, expected: typed[1] }
  }
  if (mode === 'text' && (n.anyOf !== undefined || n.enum !== undefined || n.const !== undefined)) {
    const { convert, expected } = scalarConverter(schema, config)
    return { kind: 'scalar', type: 'any', check: () => true, convert, expected }
  }
  return { kind: 'any' }
}

/**
 * Decodes a parsed body against its plan: maps tag keys to properties, keeps only the schema's
 * properties (on fresh objects: no prototype pollution), fills defaults and checks or converts
 * scalar types. A mismatch is a `BindError` naming the property path. The path is put together
 * only when something fails (each level adds its key as the error passes up), so a body that
 * binds builds no path strings.
 */
export function decodeTree(plan: TreePlan, value: unknown, options: TreeOptions): unknown {
  switch (plan.kind) {
    case 'object':
      return decodeObject(plan, value, options)
    case 'array':
      return decodeArray(plan, value, options)
    case 'scalar':
      return decodeScalar(plan, value, options)
    default:
      return value
  }
}

function decodeArray(plan: Extract<TreePlan, { kind: 'array' }>, value: unknown, options: TreeOptions): unknown[] {
  const list = Array.isArray(value) ? value : options.mode === 'text' && value !== '' ? [value] : undefined
  if (list === undefined) throw new BindError(options.source, '', `${describe(value)} is not an array`)
  const items = plan.items
  if (items === undefined) return list
  const out = new Array<unknown>(list.length)
  for (let i = 0; i < list.length; i++) {
    try {
      out[i] = decodeTree(items, list[i], options)
    } catch (err) {
      throw under(err, `[${i}]`)
    }
  }
  return out
}

function decodeObject(
  plan: Extract<TreePlan, { kind: 'object' }>,
  value: unknown,
  options: TreeOptions,
): Record<string, unknown> {
  const source = value === '' && options.mode === 'text' ? {} : value
  if (!isPlainObject(source)) {
    throw new BindError(options.source, '', `${describe(value)} is not an object`)
  }
  const input = source as Record<string, unknown>
  if (!options.config.ignoreUnknownKeys) {
    for (const key of Object.keys(input)) {
      if (!plan.keys.has(key)) throw new BindError(options.source, key, `unknown key "${key}"`)
    }
  }
  const out: Record<string, unknown> = {}
  const nested = options.defaults ? options : { ...options, defaults: true }
  for (const prop of plan.props) {
    const raw = Object.hasOwn(input, prop.key) ? input[prop.key] : undefined
    if (raw === undefined) {
      if (options.defaults && prop.hasDefault) setProp(out, prop.prop, structuredClone(prop.defaultValue))
      continue
    }
    let decoded: unknown
    try {
      decoded = decodeTree(prop.plan, raw, nested)
    } catch (err) {
      throw under(err, prop.key)
    }
    setProp(out, prop.prop, decoded)
  }
  return out
}

/** A `BindError` from inside `segment` (a key, or `[i]`), its path prefixed with it; others as they are. */
function under(err: unknown, segment: string): unknown {
  if (!(err instanceof BindError)) return err
  const inner = err.field
  const field = inner === '' ? segment : inner.startsWith('[') ? `${segment}${inner}` : `${segment}.${inner}`
  return new BindError(err.source, field, err.cause)
}

function decodeScalar(plan: Extract<TreePlan, { kind: 'scalar' }>, value: unknown, options: TreeOptions): unknown {
  if (options.mode === 'text' && typeof value === 'string') {
    const converted = plan.convert(value)
    if (converted !== FAIL) return converted
  } else if (plan.check(value)) return value
  if (typeof value === 'string' && !isWellFormed(value)) {
    throw new BindError(options.source, '', 'the text holds a lone surrogate (like \\ud800), which is not a character')
  }
  throw new BindError(options.source, '', `${describe(value)} is not ${plan.expected}`)
}

/**
 * Whether a string is Unicode text: JSON's `\\ud800` escapes give strings with lone surrogates,
 * which a database stores as U+FFFD (so that two different passwords could become the same).
 */
export function isWellFormed(value: string): boolean {
  return (value as string & { isWellFormed(): boolean }).isWellFormed()
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  if (Array.isArray(value)) return 'an array'
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value)
}
