import { FAIL } from './convert.js'
import { copyDefault } from './plan.js'
import { setProp } from './schema.js'
import type { TreePlan } from './tree-plan.js'

/**
 * A typed tree plan compiled to JavaScript: the decoded value, or `FAIL` at the first thing that
 * does not fit (`decodeTree` then runs the plan again to say what and where). A value that already
 * is exactly what decoding would build (a plain object with only the schema's keys, under their
 * own names, nothing to fill) is returned as it is, as Fastify hands a validated `request.body`
 * to its handler: copying it bought nothing and cost an object per level per request.
 */
export type CompiledTree = (value: unknown, defaults: boolean, strict: boolean, wellFormed: boolean) => unknown

// Written by hand, not with a library: the output must be exactly what `decodeTree` builds (tag
// keys, schema properties only, defaults), and only generated code makes it cheap. Every property
// is read and written under its literal name, so V8 gives each output object one hidden class and
// monomorphic accesses, where a loop over the plan stores under keys it cannot predict (a keyed
// store per property, ~3x the cost). Names enter the code only as JSON string literals; values
// (defaults) stay in the closure.

/** Compiles the plan of a typed body (JSON, MessagePack, CBOR). */
export function compileTree(plan: TreePlan): CompiledTree {
  const writer = new Writer()
  const root = writer.function(plan)
  const source = `${writer.lines.join('\n')}\nreturn ${root}`
  return new Function('FAIL', 'clone', 'setProp', 'defaults', source)(
    FAIL,
    copyDefault,
    setProp,
    writer.defaults,
  ) as CompiledTree
}

class Writer {
  readonly lines: string[] = []
  readonly defaults: unknown[] = []
  #count = 0
  #loops = 0

  /**
   * Writes a function `(v, d, s, w)` for `plan` and returns its name: `v` the input, `d` whether
   * defaults apply at this level, `s` whether unknown keys fail, `w` whether strings are known
   * to be well-formed (no lone surrogate to look for).
   */
  function(plan: TreePlan): string {
    const name = `f${this.#count++}`
    const body: string[] = []
    // an object's properties always take defaults; a top-level array passes `d` to its items
    if (plan.kind === 'object') this.#object(plan, body)
    else this.#value(plan, 'v', 'r', 'd', body)
    this.lines.push(`function ${name}(v, d, s, w) {\n  let r\n${body.join('\n')}\n  return r\n}`)
    return name
  }

  /** Code that checks `input` against `plan` and leaves the decoded value in `output`. */
  #value(plan: TreePlan, input: string, output: string, defaults: string, body: string[]): void {
    switch (plan.kind) {
      case 'object':
        body.push(`  ${output} = ${this.function(plan)}(${input}, ${defaults}, s, w)`)
        body.push(`  if (${output} === FAIL) return FAIL`)
        return
      case 'array':
        this.#array(plan, input, output, defaults, body)
        return
      case 'scalar':
        body.push(`  if (!(${typeTest(plan.type, input)})) return FAIL`)
        body.push(`  ${output} = ${input}`)
        return
      default:
        body.push(`  ${output} = ${input}`)
    }
  }

  #array(
    plan: Extract<TreePlan, { kind: 'array' }>,
    input: string,
    output: string,
    defaults: string,
    body: string[],
  ): void {
    body.push(`  if (!Array.isArray(${input})) return FAIL`)
    const items = plan.items
    if (items === undefined) {
      body.push(`  ${output} = ${input}`)
      return
    }
    // names of their own: arrays of arrays nest these loops
    const n = this.#loops++
    const [list, i, item] = [`a${n}`, `i${n}`, `e${n}`]
    if (items.kind === 'scalar') {
      // scalars are checked in place: the array is already what decoding would build
      body.push(`  for (let ${i} = 0; ${i} < ${input}.length; ${i}++) {`)
      body.push(`    if (!(${typeTest(items.type, `${input}[${i}]`)})) return FAIL`)
      body.push('  }')
      body.push(`  ${output} = ${input}`)
      return
    }
    // the input array itself when every item decodes to itself; else a new one, filled in order
    // from empty: `new Array(length)` would stay a holey array, which JSON.stringify of the
    // answer walks on a slower path
    // (the new one is started only at the first item that changes, from the ones before it)
    body.push(`  let ${list}`)
    body.push(`  for (let ${i} = 0; ${i} < ${input}.length; ${i}++) {`)
    body.push(`    let ${item} = ${input}[${i}]`)
    const inner: string[] = []
    this.#value(items, item, item, defaults, inner)
    body.push(...inner.map((line) => `  ${line}`))
    body.push(`    if (${list} !== undefined) ${list}.push(${item})`)
    body.push(`    else if (${item} !== ${input}[${i}]) { ${list} = ${input}.slice(0, ${i}); ${list}.push(${item}) }`)
    body.push('  }')
    body.push(`  ${output} = ${list} === undefined ? ${input} : ${list}`)
  }

  /**
   * An object's function body: only the plan's keys (under `s`), defaults under `d`. Values are
   * checked into locals first. The output is the input itself when it needs no rewriting; else,
   * when every property is there, one object literal (all properties in the object itself); else
   * it is built property by property.
   */
  #object(plan: Extract<TreePlan, { kind: 'object' }>, body: string[]): void {
    // isPlainObject, written out: the prototype also decides whether the input can be kept
    body.push("  if (typeof v !== 'object' || v === null) return FAIL")
    // `__proto__`, V8 inlines that getter; `Object.getPrototypeOf` is a runtime call (about 120
    // instructions a level, bench/RESULTS.md), asked only when the getter does not say
    // Object.prototype: no prototype, another one, or an own `__proto__` key shadowing the getter
    body.push('  let proto = v.__proto__')
    body.push('  if (proto !== Object.prototype) proto = Object.getPrototypeOf(v)')
    body.push('  if (proto !== Object.prototype && proto !== null) return FAIL')
    // `same`: the input is what this function would build (one key per property, under the
    // property's own name; an object of null prototype is rebuilt as an ordinary one)
    const keepable = plan.props.every((prop) => prop.key === prop.prop) && plan.keys.size === plan.props.length
    // a schema that renames a key always builds anew: no `same` bookkeeping in its code
    const unknown = keepable ? 'if (s) return FAIL; same = false' : 'if (s) return FAIL'
    if (keepable) body.push('  let same = proto !== null')
    const locals = plan.props.map((_, index) => `p${index}`)
    if (locals.length > 0) body.push(`  let ${locals.join(', ')}, all = true`)
    // The body's own keys, each read under its literal name into the locals of the properties it
    // fills: one walk of the keys, where asking `hasOwn` for each property was a call apiece.
    // A for-in walk, not `Object.keys`: V8 walks a fast object's keys from its map's enum cache,
    // where `Object.keys` built an array on every request; the own-key test (a polluted
    // Object.prototype fills nothing) is `hasOwnProperty.call` of the loop's key, which V8 reduces
    // to a map check in that walk.
    const cases = [...plan.keys].map((key) => {
      const literal = JSON.stringify(key)
      const reads = plan.props.flatMap((prop, index) => (prop.key === key ? [`${locals[index]} = v[${literal}]`] : []))
      return `case ${literal}: ${reads.join('; ')}; break`
    })
    body.push('  for (const key in v) {')
    body.push('    if (!Object.prototype.hasOwnProperty.call(v, key)) continue')
    // an object schema without properties (`Type.Object({})`) has no case: every key is unknown
    body.push(cases.length === 0 ? `    ${unknown}` : `    switch (key) { ${cases.join('; ')}; default: ${unknown} }`)
    body.push('  }')
    plan.props.forEach((prop, index) => {
      const local = locals[index] as string
      if (prop.hasDefault) {
        this.defaults.push(prop.defaultValue)
        const fill = `clone(defaults[${this.defaults.length - 1}])`
        const filled = keepable ? `${local} = ${fill}; same = false` : `${local} = ${fill}`
        body.push(`  if (${local} === undefined) { if (d) { ${filled} } else all = false } else {`)
      } else body.push(`  if (${local} === undefined) all = false; else {`)
      const inner: string[] = []
      this.#value(prop.plan, local, local, 'true', inner)
      body.push(...inner.map((line) => `  ${line}`))
      // objects and arrays decode to themselves or to a new value (scalars always to themselves)
      if (keepable && (prop.plan.kind === 'object' || prop.plan.kind === 'array')) {
        body.push(`    if (${local} !== v[${JSON.stringify(prop.key)}]) same = false`)
      }
      body.push('  }')
    })
    const entries = plan.props.map((prop, index) => `${literalKey(prop.prop)}: ${locals[index]}`)
    if (keepable) body.push('  if (same) return v')
    if (locals.length === 0) {
      body.push('  r = {}')
      return
    }
    body.push(`  if (all) return { ${entries.join(', ')} }`)
    body.push('  r = {}')
    plan.props.forEach((prop, index) => {
      const local = locals[index] as string
      const set =
        prop.prop === '__proto__' ? `setProp(r, '__proto__', ${local})` : `r[${JSON.stringify(prop.prop)}] = ${local}`
      body.push(`  if (${local} !== undefined) ${set}`)
    })
  }
}

/** The test of a scalar's JSON type (`decodeTree`'s checks, as code). */
function typeTest(type: string, value: string): string {
  switch (type) {
    case 'integer':
      return `Number.isInteger(${value})`
    case 'number':
      return `typeof ${value} === 'number'`
    case 'boolean':
      return `typeof ${value} === 'boolean'`
    case 'string':
      // lone surrogates fail too (decode-tree.ts says why), unless `w` knows there are none
      return `typeof ${value} === 'string' && (w || ${value}.isWellFormed())`
    case 'null':
      return `${value} === null`
    default:
      return 'true'
  }
}

/**
 * A property name as an object literal key: a quoted string, which V8 builds from a boilerplate;
 * `"__proto__": x` would set the prototype, so that one name is computed (`["__proto__"]: x`).
 */
export function literalKey(name: string): string {
  return name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)
}
