import type { RawNode } from './map-types.js'
import type { FieldPlan, ObjectPlan } from './plan.js'
import { isStringList } from './sources.js'

/**
 * Fills `slots` from the keys of `map` that name a field of the plan exactly (`page`, and
 * `price[min]` for the fields of a nested object), and says how many keys it took; -1 when a value
 * is neither a string nor a list of strings. When every key of the map was taken, the slots are
 * what decodeMap's key-by-key walk would have gathered; otherwise that walk runs instead.
 */
export type ExactFill = (map: Record<string, unknown>, slots: unknown[]) => number

// Generated, like map-compiled.ts: each key is read under its literal name, so V8 loads it from
// the query object's known shape as Fastify's compiled Ajv does, where the walk looks every key up
// in the plan's dictionaries. Names enter the code only as JSON string literals.

/** Compiles the exact-key fill of `plan`'s top level. */
export function compileExactFill(plan: ObjectPlan): ExactFill {
  const lines = ['let v, n = 0']
  const read = (key: string, store: string) => {
    lines.push(`v = map[${JSON.stringify(key)}]`)
    lines.push(`if (v !== undefined) { if (typeof v !== 'string' && !isStringList(v)) return -1; ${store}; n++ }`)
  }
  for (const field of plan.fields) {
    // a key that two fields share goes to the first, as the walk's lookup gives it
    if (plan.byKey[field.key] !== field) continue
    if (field.shape === 'scalar' || field.shape === 'array') read(field.key, `slots[${field.index}] = v`)
    else if (field.shape === 'object' && isPlainName(field.key)) {
      // one level down, scalar and list fields only: deeper keys are left to the walk
      for (const child of (field.child as ObjectPlan).fields) {
        if (!isExactChild(field.child as ObjectPlan, child)) continue
        read(`${field.key}[${child.key}]`, `nest(slots, ${field.index}, ${JSON.stringify(child.key)}, v)`)
      }
    }
  }
  lines.push('return n')
  const source = `return function fill(map, slots) {\n${lines.join('\n')}\n}`
  return new Function('isStringList', 'nest', source)(isStringList, nest) as ExactFill
}

function isExactChild(plan: ObjectPlan, child: FieldPlan): boolean {
  return (
    plan.byKey[child.key] === child && (child.shape === 'scalar' || child.shape === 'array') && isPlainName(child.key)
  )
}

/** A name that splits into no further segments (`[`, `]` and `.` nest keys). */
function isPlainName(name: string): boolean {
  return name !== '' && !/[[\].]/.test(name)
}

/** Adds `values` under `key` to the nested node of slot `index`. */
function nest(slots: unknown[], index: number, key: string, values: string | string[]): void {
  let node = slots[index] as RawNode | undefined
  if (node === undefined) {
    node = { values: [], children: new Map() }
    slots[index] = node
  }
  ;(node.children as Map<string, RawNode>).set(key, {
    values: typeof values === 'string' ? [values] : values.slice(),
    children: undefined,
  })
}
