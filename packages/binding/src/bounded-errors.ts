import type { TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { escapePointer } from './errors.js'
import { isObjectSchema, node } from './schema.js'

/** What an answer lists at most (TypeBox keeps 8 issues too). */
const kept = 8
/** Arrays up to this long are left as they are: their errors cost little. */
const shortArray = 64

/** Keywords about an array as a whole: an array cut to its failing items would break them. */
const wholeArrayKeywords = [
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
] as const

const itemValidators = new WeakMap<TSchema, Validator>()

function itemValidator(schema: TSchema): Validator {
  let validator = itemValidators.get(schema)
  if (validator === undefined) {
    validator = Compile(schema)
    itemValidators.set(schema, validator)
  }
  return validator
}

/** Where an array was cut: its path in the bound value, and the original index of each item kept. */
type Cut = { path: string; indexes: number[] }

/**
 * The issues of a value that failed `validator`, found with work bounded by what is listed rather
 * than by the value. TypeBox lists 8 issues but looks at every item of an array for them, keeping
 * the state of each failed alternative of a union: one 1 MB CBOR body of 1,000,000 items took 1.4 s
 * and 390 MB. So each long array (of one item schema, without whole-array keywords) is cut to its
 * first failing items, found with the item schema's compiled check (no state kept), the issues of
 * the cut value are taken, and their paths given the items' original indexes.
 */
export function boundedErrors(validator: Validator, schema: TSchema, value: unknown) {
  const cuts: Cut[] = []
  const cut = cutValue(schema, value, '', cuts)
  if (cuts.length === 0 || validator.Check(cut)) return validator.Errors(value)
  return validator.Errors(cut).map((issue) => ({ ...issue, instancePath: uncut(issue.instancePath, cuts) }))
}

function cutValue(schema: TSchema, value: unknown, path: string, cuts: Cut[]): unknown {
  const n = node(schema)
  // one schema for every item (not a draft-4 tuple's list of schemas, nor `true`/`false`)
  const oneItemSchema = typeof n.items === 'object' && n.items !== null && !Array.isArray(n.items)
  if (Array.isArray(value) && n.type === 'array' && oneItemSchema) {
    const items = n.items as TSchema
    const record = n as Record<string, unknown>
    if (value.length <= shortArray || wholeArrayKeywords.some((keyword) => record[keyword] !== undefined)) {
      return value
    }
    const check = itemValidator(items)
    const indexes: number[] = []
    const failing: unknown[] = []
    for (let i = 0; i < value.length && failing.length < kept; i++) {
      if (!check.Check(value[i])) {
        indexes.push(i)
        failing.push(cutValue(items, value[i], `${path}/${i}`, cuts))
      }
    }
    cuts.push({ path, indexes })
    return failing
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && isObjectSchema(schema)) {
    const properties = n.properties ?? {}
    let out: Record<string, unknown> | undefined
    for (const [prop, child] of Object.entries(properties)) {
      if (!Object.hasOwn(value, prop)) continue
      const inner = (value as Record<string, unknown>)[prop]
      const cutInner = cutValue(child, inner, `${path}/${escapePointer(prop)}`, cuts)
      if (cutInner !== inner) {
        out ??= { ...(value as Record<string, unknown>) }
        out[prop] = cutInner
      }
    }
    return out ?? value
  }
  return value
}

/**
 * A path into the cut value, as a path into the value: each cut array's position j becomes its
 * item's index. Outer arrays first: an item of a cut array was itself cut under its original
 * index, which the path has once the outer position is mapped.
 */
function uncut(path: string, cuts: readonly Cut[]): string {
  let out = path
  for (const { path: at, indexes } of [...cuts].sort((a, b) => a.path.length - b.path.length)) {
    if (!out.startsWith(`${at}/`)) continue
    const rest = out.slice(at.length + 1)
    const slash = rest.indexOf('/')
    const index = indexes[Number(slash === -1 ? rest : rest.slice(0, slash))]
    if (index !== undefined) out = `${at}/${index}${slash === -1 ? '' : rest.slice(slash)}`
  }
  return out
}
