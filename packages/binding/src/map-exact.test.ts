import fc from 'fast-check'
import { parse as parseQueryString } from 'fast-querystring'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { createConfig } from './config.js'
import { decodeMap } from './decode-map.js'
import { BindSource } from './errors.js'
import type { MapOptions, RawMap } from './map-types.js'
import { type ObjectPlan, planFor } from './plan.js'

const Search = Type.Object({
  page: Type.Integer({ default: 1 }),
  q: Type.Optional(Type.String({ query: 'search' })),
  tags: Type.Optional(Type.Array(Type.String())),
  price: Type.Optional(
    Type.Object({ min: Type.Integer(), max: Type.Integer({ default: 100 }), cur: Type.Array(Type.String()) }),
  ),
  deep: Type.Optional(Type.Object({ inner: Type.Object({ x: Type.String() }) })),
  lines: Type.Optional(Type.Array(Type.Object({ sku: Type.String() }))),
  'flat[key]': Type.Optional(Type.String()),
  meta: Type.Optional(Type.Object({ 'a.b': Type.Optional(Type.String()), 'c]': Type.Optional(Type.String()) })),
  ['__proto__']: Type.Optional(Type.String()),
  constructor: Type.Optional(Type.String()),
})

const options = (caseInsensitive: boolean, split: boolean): MapOptions => ({
  source: BindSource.Query,
  config: createConfig(),
  caseInsensitive,
  split,
  trim: false,
  defaults: true,
  brackets: true,
})

/** What decodeMap gives (or throws), with or without its exact-key reading. */
function decoded(map: RawMap, opts: MapOptions, exact: boolean): unknown {
  // a fresh plan each time: the exact reading is compiled on the plan on first use
  const plan = planFor(Search, 'query', { ...opts.config, plans: new WeakMap() })
  if (!exact) (plan as ObjectPlan).exact = () => -1
  try {
    return decodeMap(plan, map, opts)
  } catch (err) {
    return { error: String(err) }
  }
}

const keys = fc.constantFrom(
  'page',
  'PAGE',
  'search',
  'q',
  'tags',
  'tags[]',
  'tags[0]',
  'price',
  'price[min]',
  'price[MIN]',
  'price[max]',
  'price[cur]',
  'price.min',
  'Price[min]',
  'deep[inner][x]',
  'deep[inner]',
  'lines[0][sku]',
  'flat[key]',
  'flat',
  'meta[a.b]',
  'meta[c]]',
  'meta[a][b]',
  '__proto__',
  'constructor',
  'toString',
  'a[b',
  'other',
)
const value = fc.oneof(
  fc.constantFrom('1', '2', '-3', 'x', '', 'a,b'),
  fc.array(fc.constantFrom('1', 'x', ''), { minLength: 2, maxLength: 3 }),
)

describe('reading the keys that name a field exactly', () => {
  it('gives what the key-by-key walk gives, for any map of known, nested, odd and unknown keys', () => {
    fc.assert(
      fc.property(
        fc.dictionary(keys, value, { maxKeys: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (entries, nullPrototype, caseInsensitive, split) => {
          const map: RawMap = nullPrototype ? Object.assign(Object.create(null), entries) : entries
          const opts = options(caseInsensitive, split)
          expect(decoded(map, opts, true)).toEqual(decoded(map, opts, false))
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('binds a parsed query string whose keys all name fields', () => {
    const map = parseQueryString('page=2&search=lamp&tags=a&tags=b&price[min]=5&price[cur]=eur') as RawMap
    expect(decoded(map, options(true, false), true)).toEqual({
      page: 2,
      q: 'lamp',
      tags: ['a', 'b'],
      price: { min: 5, max: 100, cur: ['eur'] },
    })
  })

  it('leaves a repeated nested key and a custom parser’s nested values to the walk, with the same result', () => {
    const repeated = parseQueryString('price[min]=1&price[min]=7&price[cur]=a&price[cur]=b') as RawMap
    expect(decoded(repeated, options(true, false), true)).toEqual({
      page: 1,
      price: { min: 7, max: 100, cur: ['a', 'b'] },
    })
    const nested = { page: '3', price: { min: '2', cur: ['x'] } } as unknown as RawMap
    expect(decoded(nested, options(true, false), true)).toEqual({ page: 3, price: { min: 2, max: 100, cur: ['x'] } })
  })
})
