import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { createConfig } from './config.js'
import { decodeMap } from './decode-map.js'
import { BindError, BindSource } from './errors.js'
import type { MapOptions, RawMap } from './map-types.js'
import { planFor } from './plan.js'

const config = createConfig()
config.converters.set('nothing', () => undefined)

const Search = Type.Object({
  page: Type.Integer({ default: 1 }),
  q: Type.Optional(Type.String({ query: 'search' })),
  tags: Type.Optional(Type.Array(Type.String())),
  blank: Type.Optional(Type.String({ format: 'nothing' })),
  price: Type.Optional(Type.Object({ min: Type.Integer(), max: Type.Integer({ default: 100 }) })),
  ['__proto__']: Type.Optional(Type.String()),
  'a"b\\c': Type.Optional(Type.Boolean()),
})

const options = (defaults: boolean): MapOptions => ({
  source: BindSource.Query,
  config,
  caseInsensitive: true,
  split: false,
  trim: false,
  defaults,
  brackets: true,
})

const decode = (map: RawMap, defaults = true) => decodeMap(planFor(Search, 'query', config), map, options(defaults))

describe('the compiled build step of map binding', () => {
  it('writes every field, in schema order, when all are there', () => {
    const out = decode({
      page: '2',
      search: 'lamp',
      tags: ['a', 'b'],
      blank: 'x',
      'price[min]': '5',
      'price[max]': '9',
      ['__proto__']: 'p',
      'a"b\\c': 'true',
    })
    expect(Object.keys(out)).toEqual(['page', 'q', 'tags', 'blank', 'price', '__proto__', 'a"b\\c'])
    expect(out).toMatchObject({ page: 2, q: 'lamp', tags: ['a', 'b'], price: { min: 5, max: 9 }, 'a"b\\c': true })
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.hasOwn(out, '__proto__')).toBe(true)
  })

  it('leaves out what was not sent, keeps what a converter made undefined', () => {
    const out = decode({ blank: 'x', 'price[min]': '5' })
    expect(out).toEqual({ page: 1, blank: undefined, price: { min: 5, max: 100 } })
    expect(Object.keys(out)).toEqual(['page', 'blank', 'price'])
    expect(Object.hasOwn(decode({}), '__proto__')).toBe(false)
  })

  it('fills defaults only where asked (all() reads partial sources), nested objects always', () => {
    expect(decode({ 'price[min]': '5' }, false)).toEqual({ price: { min: 5, max: 100 } })
  })

  it('names the field of a value it cannot convert, nested ones by their path', () => {
    expect(() => decode({ page: 'two' })).toThrow(BindError)
    expect(() => decode({ page: 'two' })).toThrow(/"two" is not an integer/)
    const nested = (() => {
      try {
        decode({ 'price[min]': 'x' })
      } catch (err) {
        return err as BindError
      }
    })()
    expect(nested?.field).toBe('price.min')
  })
})
