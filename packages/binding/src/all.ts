import type { TSchema } from 'typebox'
import { hasBody } from './content-type.js'
import { BindError, BindSource } from './errors.js'
import { defaultOf, planFor } from './plan.js'
import { readBody, readCookie, readHeader, readQuery, readUri, type Step, type Target } from './read.js'
import { node, setProp, tagOf } from './schema.js'

/** The source names `bindingSource` accepts, in the default precedence of `all()`. */
const defaultOrder = ['uri', 'body', 'query', 'header', 'cookie'] as const

type SourceName = (typeof defaultOrder)[number]

/** The one field with its own source list, if the schema has one. */
type Override = { prop: string; order: readonly SourceName[] }

const overrides = new WeakMap<TSchema, Override | null | BindError>()

/**
 * The `bindingSource` override of `schema`: the one top-level field that lists its own sources,
 * first (winning) to last. Compiled once per schema; a bad `bindingSource` (unknown name, on two
 * fields, or on a nested field) is a `BindError`.
 */
export function overrideOf(schema: TSchema): Override | null {
  let override = overrides.get(schema)
  if (override === undefined) {
    override = compileOverride(schema)
    overrides.set(schema, override)
  }
  if (override instanceof BindError) throw override
  return override
}

function compileOverride(schema: TSchema): Override | null | BindError {
  const tagged: [string, string][] = []
  for (const [prop, child] of Object.entries(node(schema).properties ?? {})) {
    const list = tagOf(child, 'bindingSource')
    if (list !== undefined) tagged.push([prop, list])
    const nested = findNested(child, prop)
    if (nested !== undefined) {
      return new BindError(BindSource.URI, nested, 'bindingSource is allowed only on a top-level field')
    }
  }
  if (tagged.length === 0) return null
  if (tagged.length > 1) {
    const names = tagged.map(([prop]) => prop).join(', ')
    return new BindError(BindSource.URI, names, `only one field may have bindingSource (found on ${names})`)
  }
  const [prop, list] = tagged[0] as [string, string]
  const order: SourceName[] = []
  for (const raw of list.split(',')) {
    const name = raw.trim()
    if (!(defaultOrder as readonly string[]).includes(name)) {
      const known = defaultOrder.join(', ')
      return new BindError(BindSource.URI, prop, `unknown bindingSource "${name}" (expected one of ${known})`)
    }
    if (!order.includes(name as SourceName)) order.push(name as SourceName)
  }
  return { prop, order }
}

function findNested(schema: TSchema, path: string): string | undefined {
  const n = node(schema)
  const children = n.properties ?? (n.items === undefined ? {} : (node(n.items).properties ?? {}))
  for (const [prop, child] of Object.entries(children)) {
    if (tagOf(child, 'bindingSource') !== undefined) return `${path}.${prop}`
    const deeper = findNested(child, `${path}.${prop}`)
    if (deeper !== undefined) return deeper
  }
  return undefined
}

/**
 * The seed's `All()`: each source in the default order fills the top-level fields still empty (a
 * field set by an earlier source is never overwritten); the field with a `bindingSource` list
 * takes the first value found in its own sources, in its order, and ignores the others; the body
 * counts only when it is non-empty and has a Content-Type; defaults apply last, to fields no
 * source had.
 */
export async function bindAll(target: Target, schema: TSchema, files: boolean): Promise<Record<string, unknown>> {
  const override = overrideOf(schema)
  const step: Step = { options: files ? undefined : { files: false }, defaults: false }
  const partials = new Map<SourceName, Record<string, unknown>>()
  for (const name of defaultOrder) {
    if (name === 'body' && !hasBody(target.request)) continue
    // a source the bindingSource field does not list must not even convert (or fail on) its value
    const listed = override === null || override.order.includes(name)
    const read = listed ? step : { ...step, ignore: override.prop }
    partials.set(name, (await readSource(target, name, schema, read)) as Record<string, unknown>)
  }
  const out: Record<string, unknown> = {}
  for (const partial of partials.values()) {
    for (const key of Object.keys(partial)) {
      if (key === override?.prop) continue
      if (!Object.hasOwn(out, key) && partial[key] !== undefined) setProp(out, key, partial[key])
    }
  }
  if (override !== null) {
    for (const name of override.order) {
      const value = partials.get(name)?.[override.prop]
      if (value !== undefined) {
        setProp(out, override.prop, value)
        break
      }
    }
  }
  const plan = planFor(schema, 'query', target.config)
  for (const field of plan.fields) {
    if (field.hasDefault && !Object.hasOwn(out, field.prop)) setProp(out, field.prop, defaultOf(field))
  }
  return out
}

function readSource(target: Target, name: SourceName, schema: TSchema, step: Step): unknown {
  switch (name) {
    case 'uri':
      return readUri(target, schema, step)
    case 'body':
      return readBody(target, schema, step)
    case 'query':
      return readQuery(target, schema, step)
    case 'header':
      return readHeader(target, schema, step)
    default:
      return readCookie(target, schema, step)
  }
}
