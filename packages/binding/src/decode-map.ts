import { FAIL } from './convert.js'
import { normalizeBrackets } from './decode-record.js'
import { BindError } from './errors.js'
import { type CompiledBuild, compileBuild } from './map-compiled.js'
import { compileExactFill, type ExactFill } from './map-exact.js'
import type { MapOptions, RawMap, RawNode } from './map-types.js'
import { arrayIndex, splitKey } from './path.js'
import type { FieldPlan, ObjectPlan } from './plan.js'
import { isStringList, toRawMap } from './sources.js'

type Slot = string | string[] | RawNode | undefined

/**
 * Decodes a map (`a=1&tags[]=x&posts[0][title]=y`, already split into keys and values) into
 * the object `plan` describes. Only the schema's properties are ever written, on fresh objects,
 * so request keys can never reach a prototype.
 */
export function decodeMap(plan: ObjectPlan, map: RawMap, options: MapOptions): Record<string, unknown> {
  // the common case first: every key names a field exactly, read under its own name
  let exact = plan.exact as ExactFill | undefined
  if (exact === undefined) {
    exact = compileExactFill(plan)
    plan.exact = exact
  }
  const slots: Slot[] = new Array(plan.fields.length)
  if (exact(map, slots) === keyCount(map)) return build(plan, slots, options, '')
  return decodeEach(plan, map, options)
}

function keyCount(map: RawMap): number {
  let count = 0
  for (const _ in map) count++
  return count
}

/** decodeMap key by key: any case, nested keys at any depth, unknown keys. */
function decodeEach(plan: ObjectPlan, map: RawMap, options: MapOptions): Record<string, unknown> {
  const slots: Slot[] = new Array(plan.fields.length)
  for (const key in map) {
    const value = map[key]
    if (typeof value !== 'string') {
      if (value === undefined) continue
      // a custom parser's nested values (`qs`): flattened into bracket keys, then read again
      if (!isStringList(value)) return decodeEach(plan, toRawMap(map), options)
    }
    const field = lookup(plan, key, options.caseInsensitive)
    if (field !== undefined) {
      slots[field.index] = addValue(slots[field.index], value)
      continue
    }
    addNested(plan, slots, key, value, options)
  }
  return build(plan, slots, options, '')
}

/**
 * True when a request key (`title`, `posts[0][title]`, `prefs.theme`) would fill a field of
 * `plan` (case-insensitively, as forms match): multipart reading drops the parts of other keys.
 */
export function fillsField(plan: ObjectPlan, key: string): boolean {
  return lookup(plan, key, true) !== undefined || lookup(plan, key.slice(0, headLength(key)), true) !== undefined
}

function lookup(plan: ObjectPlan, key: string, caseInsensitive: boolean): FieldPlan | undefined {
  const field = plan.byKey[key]
  if (field !== undefined || !caseInsensitive) return field
  return plan.byLower[key.toLowerCase()]
}

function addValue(slot: Slot, value: string | string[]): Slot {
  if (slot === undefined) return value
  const node = toNode(slot)
  if (typeof value === 'string') node.values.push(value)
  else for (const v of value) node.values.push(v)
  return node
}

function toNode(slot: Exclude<Slot, undefined>): RawNode {
  if (typeof slot === 'string') return { values: [slot], children: undefined }
  if (Array.isArray(slot)) return { values: slot.slice(), children: undefined }
  return slot
}

function addNested(plan: ObjectPlan, slots: Slot[], key: string, value: string | string[], options: MapOptions): void {
  const field = lookup(plan, key.slice(0, headLength(key)), options.caseInsensitive)
  if (field === undefined) {
    // as in Fiber, a bracket key that does not pair up is the client's mistake, field or not
    if (options.brackets && normalizeBrackets(key) === '\u0000') {
      throw new BindError(options.source, key, `unmatched brackets in key "${key}"`)
    }
    unknownKey(key, options)
    return
  }
  const path = pathOf(plan, key)
  if (typeof path === 'string') throw new BindError(options.source, key, path)
  let node = toNode(slots[field.index] ?? { values: [], children: undefined })
  slots[field.index] = node
  for (let i = 1; i < path.length; i++) {
    const segment = path[i] as string
    if (segment === '' && i === path.length - 1) break
    node.children ??= new Map()
    let next = node.children.get(segment)
    if (next === undefined) {
      next = { values: [], children: undefined }
      node.children.set(segment, next)
    }
    node = next
  }
  if (typeof value === 'string') node.values.push(value)
  else for (const v of value) node.values.push(v)
}

/** Most split keys remembered per plan (the same nested keys come with every request). */
const maxCachedPaths = 256

/** `splitKey(key)`, remembered on the plan for the keys of its fields. */
function pathOf(plan: ObjectPlan, key: string): string[] | string {
  let paths = plan.paths
  if (paths === undefined) {
    paths = new Map()
    plan.paths = paths
  }
  let path = paths.get(key)
  if (path === undefined) {
    path = splitKey(key)
    if (paths.size < maxCachedPaths) paths.set(key, path)
  }
  return path
}

/** Length of a key's name before its first `[`, `.` or `]`. */
function headLength(key: string): number {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    if (c === 91 || c === 46 || c === 93) return i
  }
  return key.length
}

function unknownKey(key: string, options: MapOptions): void {
  if (!options.config.ignoreUnknownKeys) {
    throw new BindError(options.source, key, `unknown key "${key}"`)
  }
}

/** The output object of `plan` from its slots, by the plan's compiled builder (made on first use). */
function build(plan: ObjectPlan, slots: Slot[], options: MapOptions, prefix: string): Record<string, unknown> {
  let compiled = plan.build as CompiledBuild<Exclude<Slot, undefined>, MapOptions> | undefined
  if (compiled === undefined) {
    compiled = compileBuild<Exclude<Slot, undefined>, MapOptions>(plan, convertField)
    plan.build = compiled
  }
  return compiled(slots, options, prefix)
}

function convertField(field: FieldPlan, slot: Exclude<Slot, undefined>, options: MapOptions, path: string): unknown {
  switch (field.shape) {
    case 'scalar':
      return convertOne(field, lastValue(slot, options, path), options, path)
    case 'array':
      return convertList(field, slot, options, path)
    case 'object':
      return convertObject(field, slot, options, path)
    case 'objects':
      return convertObjects(field, slot, options, path)
    default:
      throw new BindError(options.source, path, 'expects an uploaded file')
  }
}

function lastValue(slot: Exclude<Slot, undefined>, options: MapOptions, path: string): string {
  if (typeof slot === 'string') return slot
  const values = Array.isArray(slot) ? slot : slot.values
  const last = values[values.length - 1]
  if (last === undefined) throw new BindError(options.source, path, 'expects a single value, not nested keys')
  return last
}

function convertOne(field: FieldPlan, raw: string, options: MapOptions, path: string): unknown {
  const value = field.convert(raw)
  if (value === FAIL) throw new BindError(options.source, path, `${quote(raw)} is not ${field.expected}`)
  return value
}

function quote(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)
}

function convertList(field: FieldPlan, slot: Exclude<Slot, undefined>, options: MapOptions, path: string): unknown[] {
  let raws: string[]
  if (typeof slot === 'string') raws = [slot]
  else if (Array.isArray(slot)) raws = slot
  else
    raws = slot.children === undefined ? slot.values : slot.values.concat(indexedValues(slot.children, options, path))
  if (!options.split) {
    // a copy filled in place: packed and of the right length, where an array pushed to from
    // empty reserves room for 17 (184 bytes for two tags, bench/RESULTS.md)
    const out: unknown[] = raws.slice()
    for (let i = 0; i < out.length; i++) out[i] = convertOne(field, raws[i] as string, options, path)
    return out
  }
  const out: unknown[] = []
  for (const raw of raws) {
    if (raw.indexOf(',') !== -1) {
      for (const part of raw.split(',')) out.push(convertOne(field, options.trim ? part.trim() : part, options, path))
    } else out.push(convertOne(field, raw, options, path))
  }
  return out
}

/** `colors[0]=a&colors[1]=b`: values of index keys, in index order (gaps closed). */
function indexedValues(children: Map<string, RawNode>, options: MapOptions, path: string): string[] {
  const out: string[] = []
  for (const [, child] of sortedIndexes(children, options, path)) {
    if (child.children !== undefined) throw new BindError(options.source, path, 'expects values, not nested keys')
    for (const v of child.values) out.push(v)
  }
  return out
}

function sortedIndexes(children: Map<string, RawNode>, options: MapOptions, path: string): [number, RawNode][] {
  const entries: [number, RawNode][] = []
  for (const [segment, child] of children) {
    const index = arrayIndex(segment)
    if (index === -1) {
      throw new BindError(options.source, `${path}[${segment}]`, `"${segment}" is not an array index from 0 to 1000`)
    }
    entries.push([index, child])
  }
  return entries.sort((a, b) => a[0] - b[0])
}

function convertObject(field: FieldPlan, slot: Exclude<Slot, undefined>, options: MapOptions, path: string): unknown {
  const node = typeof slot === 'object' && !Array.isArray(slot) ? slot : undefined
  if (node?.children === undefined) {
    throw new BindError(options.source, path, `expects nested keys like ${path}[name]`)
  }
  return decodeChildren(field.child as ObjectPlan, node.children, options, path)
}

function convertObjects(
  field: FieldPlan,
  slot: Exclude<Slot, undefined>,
  options: MapOptions,
  path: string,
): unknown[] {
  const node = typeof slot === 'object' && !Array.isArray(slot) ? slot : undefined
  if (node?.children === undefined) {
    throw new BindError(options.source, path, `expects indexed keys like ${path}[0][name]`)
  }
  const out: unknown[] = []
  for (const [index, child] of sortedIndexes(node.children, options, path)) {
    const itemPath = `${path}[${index}]`
    if (child.children === undefined) {
      throw new BindError(options.source, itemPath, `expects nested keys like ${itemPath}[name]`)
    }
    out.push(decodeChildren(field.child as ObjectPlan, child.children, options, itemPath))
  }
  return out
}

function decodeChildren(
  plan: ObjectPlan,
  children: Map<string, RawNode>,
  options: MapOptions,
  path: string,
): Record<string, unknown> {
  const slots: Slot[] = new Array(plan.fields.length)
  for (const [key, child] of children) {
    const field = lookup(plan, key, options.caseInsensitive)
    if (field === undefined) unknownKey(`${path}[${key}]`, options)
    else slots[field.index] = child
  }
  return build(plan, slots, options.defaults ? options : { ...options, defaults: true }, `${path}.`)
}
