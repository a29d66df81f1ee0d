import { describe, expect, it } from 'vitest'
import { resolveConfig } from './config.js'
import { parseSort } from './sort.js'

const config = resolveConfig({ allowedSorts: ['id', 'price', 'name', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] })

describe('parseSort', () => {
  it('reads fields in the given order, "-" meaning descending', () => {
    expect(parseSort('-price,name', config)).toEqual([
      { field: 'price', order: 'desc' },
      { field: 'name', order: 'asc' },
    ])
  })

  it('trims items and skips empty items and a bare "-"', () => {
    expect(parseSort(' price , ,-, -name,', config)).toEqual([
      { field: 'price', order: 'asc' },
      { field: 'name', order: 'desc' },
    ])
  })

  it('keeps only allowed fields, matched exactly', () => {
    expect(parseSort('Price,secret,price', config)).toEqual([{ field: 'price', order: 'asc' }])
  })

  it('keeps the first occurrence of a repeated field', () => {
    expect(parseSort('-price,price,id', config)).toEqual([
      { field: 'price', order: 'desc' },
      { field: 'id', order: 'asc' },
    ])
  })

  it('reads at most 8 sort items', () => {
    expect(parseSort('a,b,c,d,e,f,g,h,i', config).map((s) => s.field)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])
  })

  it.each([undefined, '', ',,', 'unknown', '-'])('falls back to the default sort for %j', (raw) => {
    expect(parseSort(raw, config)).toEqual([{ field: 'id', order: 'asc' }])
  })

  it('ignores the request sort when no sorts are allowed', () => {
    expect(parseSort('-price', resolveConfig({ defaultSort: 'created' }))).toEqual([{ field: 'created', order: 'asc' }])
  })

  it('uses the first allowed field when defaultSort is not allowed', () => {
    expect(parseSort('nope', resolveConfig({ allowedSorts: ['name'] }))).toEqual([{ field: 'name', order: 'asc' }])
  })
})
