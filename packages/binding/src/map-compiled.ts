import { FAIL } from './convert.js'
import type { FieldPlan, ObjectPlan } from './plan.js'
import { defaultOf } from './plan.js'
import { setProp } from './schema.js'
import { literalKey } from './tree-compiled.js'

/** Converts the raw values gathered for one field (its error path is `path`). */
export type ConvertField<Slot, Options> = (field: FieldPlan, slot: Slot, options: Options, path: string) => unknown

/** Builds the output object of a plan from the raw values gathered per field (`slots`, by index). */
export type CompiledBuild<Slot, Options extends { defaults: boolean }> = (
  slots: (Slot | undefined)[],
  options: Options,
  prefix: string,
) => Record<string, unknown>

// Written by hand, not with a library, for the reason tree-compiled.ts gives: a loop over the
// plan stores each property under a key V8 cannot predict, and builds objects that keep most
// properties outside themselves. Generated code writes one object literal when every field is
// there. Names enter the code only as JSON string literals; converters and defaults stay in the
// closure.

/** Compiles the `build` step of map decoding (query, form, headers, cookies, params) for `plan`. */
export function compileBuild<Slot, Options extends { defaults: boolean }>(
  plan: ObjectPlan,
  convertField: ConvertField<Slot, Options>,
): CompiledBuild<Slot, Options> {
  const fields = plan.fields
  const lines: string[] = []
  const locals = fields.map((_, index) => `x${index}`)
  // declared even without fields (`Type.Object({})`): the code below tests `all`
  lines.push(`let ${[...locals, 's', 'all = true'].join(', ')}`)
  fields.forEach((field, index) => {
    const local = locals[index] as string
    const path = JSON.stringify(field.key)
    lines.push(`s = slots[${index}]`)
    const absent = field.hasDefault
      ? `if (options.defaults) ${local} = defaultOf(fields[${index}]); else { ${local} = ABSENT; all = false }`
      : `${local} = ABSENT; all = false`
    lines.push(`if (s === undefined) { ${absent} }`)
    // the common case, a scalar sent once, converted without building the error path
    if (field.shape === 'scalar') {
      lines.push(`else if (typeof s !== 'string' || (${local} = fields[${index}].convert(s)) === FAIL)`)
      lines.push(`  ${local} = convertField(fields[${index}], s, options, prefix + ${path})`)
    } else lines.push(`else ${local} = convertField(fields[${index}], s, options, prefix + ${path})`)
  })
  const entries = fields.map((field, index) => `${literalKey(field.prop)}: ${locals[index]}`)
  lines.push(`if (all) return { ${entries.join(', ')} }`)
  lines.push('const r = {}')
  fields.forEach((field, index) => {
    const local = locals[index] as string
    const set =
      field.prop === '__proto__' ? `setProp(r, '__proto__', ${local})` : `r[${JSON.stringify(field.prop)}] = ${local}`
    lines.push(`if (${local} !== ABSENT) ${set}`)
  })
  lines.push('return r')
  const source = `return function build(slots, options, prefix) {\n${lines.join('\n')}\n}`
  return new Function('fields', 'FAIL', 'ABSENT', 'convertField', 'defaultOf', 'setProp', source)(
    fields,
    FAIL,
    ABSENT,
    convertField,
    defaultOf,
    setProp,
  ) as CompiledBuild<Slot, Options>
}

/** A field with no value and no default to take (left out of the output). */
const ABSENT = Symbol('weft.absent')
