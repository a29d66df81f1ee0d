import fc from 'fast-check'
import { type TSchema, Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { createConfig } from './config.js'
import { FAIL } from './convert.js'
import { decodeTree, treeDecoderFor } from './decode-tree.js'
import { BindSource } from './errors.js'

const Order = Type.Object({
  id: Type.Integer(),
  title: Type.Optional(Type.String({ json: 'name' })),
  price: Type.Number(),
  paid: Type.Boolean({ default: false }),
  note: Type.Optional(Type.Null()),
  tags: Type.Array(Type.String(), { default: ['new'] }),
  grid: Type.Optional(Type.Array(Type.Array(Type.Integer()))),
  lines: Type.Optional(Type.Array(Type.Object({ sku: Type.String(), qty: Type.Integer({ default: 1 }) }))),
  ship: Type.Optional(Type.Object({ zip: Type.String(), extra: Type.Any() })),
  ['__proto__']: Type.Optional(Type.String()),
  constructor: Type.Optional(Type.Integer()),
})

/** What the plan interpreter gives: the value, or the BindError it throws. */
function interpreted(schema: TSchema, value: unknown, defaults: boolean, strict: boolean): unknown {
  const config = { ...createConfig(), ignoreUnknownKeys: !strict }
  const { plan } = treeDecoderFor(schema, 'json', 'typed', config)
  try {
    return decodeTree(plan, value, { source: BindSource.Body, config, mode: 'typed', defaults })
  } catch {
    return FAIL
  }
}

function compiled(schema: TSchema, value: unknown, defaults: boolean, strict: boolean, wellFormed = false): unknown {
  const decoder = treeDecoderFor(schema, 'json', 'typed', createConfig())
  return decoder.compiled?.(value, defaults, strict, wellFormed)
}

const leaf = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 4 }),
  fc.constant(null),
  fc.constantFrom('new', 'x'),
)
const keys = fc.constantFrom(
  'id',
  'name',
  'title',
  'price',
  'paid',
  'note',
  'tags',
  'grid',
  'lines',
  'ship',
  'zip',
  'extra',
  'sku',
  'qty',
  '__proto__',
  'constructor',
  'toString',
  'other',
)
// JSON-shaped values whose keys are mostly the schema's, so that many of them bind
const body = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc
    .array(fc.tuple(keys, tie('value')), { maxLength: 8 })
    .map((pairs) => JSON.parse(JSON.stringify(Object.fromEntries(pairs))) as unknown),
})).value

// valid orders with one property replaced by any value: every type check is reached on its own
const order = fc.record(
  {
    id: fc.integer(),
    name: fc.string({ maxLength: 4 }),
    price: fc.double({ noNaN: true, noDefaultInfinity: true }),
    paid: fc.boolean(),
    note: fc.constant(null),
    tags: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
    grid: fc.array(fc.array(fc.integer(), { maxLength: 3 }), { maxLength: 3 }),
    lines: fc.array(fc.record({ sku: fc.string({ maxLength: 4 }), qty: fc.integer() }, { requiredKeys: ['sku'] }), {
      maxLength: 3,
    }),
    ship: fc.record({ zip: fc.string({ maxLength: 4 }), extra: fc.jsonValue({ maxDepth: 2 }) }),
  },
  { requiredKeys: ['id', 'price'] },
)
const changedOrder = fc
  .tuple(order, keys, body)
  .map(([valid, key, value]) => JSON.parse(JSON.stringify({ ...valid, [key]: value })) as unknown)

describe('the compiled decoder of typed bodies', () => {
  it('gives what the plan interpreter gives for valid orders with one property changed', () => {
    fc.assert(
      fc.property(changedOrder, fc.boolean(), fc.boolean(), (value, defaults, strict) => {
        expect(compiled(Order, value, defaults, strict)).toEqual(interpreted(Order, value, defaults, strict))
      }),
      { numRuns: 3000 },
    )
  })

  it('gives what the plan interpreter gives, for any JSON value (or fails where it fails)', () => {
    fc.assert(
      fc.property(body, fc.boolean(), fc.boolean(), (value, defaults, strict) => {
        expect(compiled(Order, value, defaults, strict)).toEqual(interpreted(Order, value, defaults, strict))
      }),
      { numRuns: 3000 },
    )
  })

  it('binds a full order with a renamed key into a new object, properties in schema order', () => {
    const input = {
      id: 7,
      name: 'desk',
      price: 9.5,
      paid: true,
      note: null,
      tags: ['a'],
      grid: [[1, 2], [3]],
      lines: [{ sku: 'x', qty: 2 }],
      ship: { zip: '1000', extra: { any: ['thing'] } },
      constructor: 3,
    }
    const out = compiled(Order, input, true, true) as Record<string, unknown>
    expect(out).toEqual({ ...input, name: undefined, title: 'desk' })
    expect(Object.keys(out)).toEqual([
      'id',
      'title',
      'price',
      'paid',
      'note',
      'tags',
      'grid',
      'lines',
      'ship',
      'constructor',
    ])
    // a new top object (the body's `name` is the schema's `title`), whose parts that already fit
    // exactly are the body's own
    expect(out).not.toBe(input)
    expect(out.tags).toBe(input.tags)
    expect(out.grid).toBe(input.grid)
    expect(out.ship).toBe(input.ship)
  })

  it('hands back a body that already is what decoding builds, as it is (as Fastify hands request.body)', () => {
    const Item = Type.Object({
      id: Type.Integer(),
      note: Type.Optional(Type.String()),
      tags: Type.Array(Type.String()),
      lines: Type.Array(Type.Object({ sku: Type.String(), qty: Type.Integer() })),
      ship: Type.Object({ zip: Type.String(), extra: Type.Any() }),
    })
    const input = JSON.parse(
      '{"ship":{"zip":"1000","extra":[1]},"id":7,"tags":["a"],"lines":[{"sku":"x","qty":2},{"sku":"y","qty":1}]}',
    ) as Record<string, unknown>
    for (const [defaults, strict] of [
      [true, true],
      [false, false],
    ] as const) {
      const out = compiled(Item, input, defaults, strict)
      expect(out).toBe(input)
      // the body's own key order, as Fastify's route would answer it
      expect(JSON.stringify(out)).toBe(JSON.stringify(input))
    }
  })

  it('builds a new object wherever the body differs from what decoding builds', () => {
    const Item = Type.Object({
      id: Type.Integer(),
      paid: Type.Boolean({ default: false }),
      lines: Type.Optional(Type.Array(Type.Object({ sku: Type.String(), qty: Type.Integer({ default: 1 }) }))),
    })
    const fits = { sku: 'x', qty: 2 }
    // a default to fill, at the top and in an array's item
    const filled = { id: 1, lines: [fits, { sku: 'y' }] }
    const out = compiled(Item, filled, true, true) as { paid: boolean; lines: unknown[] }
    expect(out).not.toBe(filled)
    expect(out).toEqual({ id: 1, paid: false, lines: [fits, { sku: 'y', qty: 1 }] })
    expect(out.lines).not.toBe(filled.lines)
    expect(out.lines[0]).toBe(fits)
    expect(out.lines[1]).not.toBe(filled.lines[1])
    // an unknown key, left out when unknown keys are allowed
    const extra = { id: 1, paid: true, other: 'x' }
    expect(compiled(Item, extra, true, false)).not.toBe(extra)
    expect(compiled(Item, extra, true, false)).toEqual({ id: 1, paid: true })
    // an object of null prototype is rebuilt as an ordinary one
    const bare = Object.assign(Object.create(null) as object, { id: 1, paid: true })
    const rebuilt = compiled(Item, bare, true, true)
    expect(rebuilt).not.toBe(bare)
    expect(Object.getPrototypeOf(rebuilt)).toBe(Object.prototype)
    // a key under another name than the property's
    const Renamed = Type.Object({ title: Type.String({ json: 'name' }) })
    const named = { name: 'desk' }
    expect(compiled(Renamed, named, true, true)).toEqual({ title: 'desk' })
  })

  it('fills defaults with copies (never the schema’s own array), only where asked', () => {
    const first = compiled(Order, { id: 1, price: 1, lines: [{ sku: 'a' }] }, true, false) as Record<string, unknown>
    expect(first).toEqual({ id: 1, price: 1, paid: false, tags: ['new'], lines: [{ sku: 'a', qty: 1 }] })
    ;(first.tags as string[]).push('changed')
    const second = compiled(Order, { id: 1, price: 1 }, true, false) as Record<string, unknown>
    expect(second.tags).toEqual(['new'])
    // defaults off at the top level (all()'s partial reads), still on inside nested objects
    expect(compiled(Order, { id: 1, price: 1, lines: [{ sku: 'a' }] }, false, false)).toEqual({
      id: 1,
      price: 1,
      lines: [{ sku: 'a', qty: 1 }],
    })
  })

  it('keeps a "__proto__" key as a property, never as the prototype', () => {
    const input = JSON.parse('{"id":1,"price":2,"__proto__":"p"}') as unknown
    const out = compiled(Order, input, true, false) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.hasOwn(out, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('p')
    const partial = compiled(
      Order,
      JSON.parse('{"id":1,"price":2,"paid":true,"tags":[],"__proto__":"q"}'),
      false,
      false,
    )
    expect(Object.getPrototypeOf(partial)).toBe(Object.prototype)
  })

  it('reads only own keys: a polluted Object.prototype fills nothing', () => {
    const proto = Object.prototype as Record<string, unknown>
    proto.price = 5
    try {
      expect(compiled(Order, { id: 1 }, true, false)).toEqual({ id: 1, paid: false, tags: ['new'] })
    } finally {
      delete proto.price
    }
  })

  it('fails on unknown keys only when strict, and on anything that is not a plain object', () => {
    expect(compiled(Order, { id: 1, price: 1, other: 1 }, true, true)).toBe(FAIL)
    expect(compiled(Order, { id: 1, price: 1, other: 1 }, true, false)).toEqual({
      id: 1,
      price: 1,
      paid: false,
      tags: ['new'],
    })
    // a class instance, and one whose own `__proto__` key names Object.prototype's getter away
    class Row {
      id = 1
      price = 1
    }
    const shadowed = Object.defineProperty(new Row(), '__proto__', { value: { id: 2 }, enumerable: true })
    for (const value of [null, 1, 'x', true, [], new Date(0), Object.create({ id: 1 }), new Row(), shadowed]) {
      expect(compiled(Order, value, true, false)).toBe(FAIL)
    }
  })

  it('tests strings for lone surrogates unless told they have none', () => {
    const Named = Type.Object({ name: Type.String(), tags: Type.Array(Type.String()) })
    const lone = { name: 'a\ud800', tags: ['b'] }
    const inList = { name: 'a', tags: ['\udc00b'] }
    expect(compiled(Named, lone, true, false)).toBe(FAIL)
    expect(compiled(Named, inList, true, false)).toBe(FAIL)
    // json-text.ts says so only for a body whose text had no `\u` escape
    expect(compiled(Named, lone, true, false, true)).toBe(lone)
  })

  it('compiles key names that are not identifiers as string literals', () => {
    const Odd = Type.Object({ 'a"b': Type.Integer(), 'c\\d': Type.String(), '\u2028': Type.Boolean() })
    const input = { 'a"b': 1, 'c\\d': 'x', '\u2028': true }
    expect(compiled(Odd, input, true, true)).toEqual(input)
  })
})
