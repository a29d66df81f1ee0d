import { describe, expect, it } from 'vitest'
import { resolveConfig } from './config.js'

describe('resolveConfig', () => {
  it('applies the documented defaults', () => {
    const config = resolveConfig()
    expect(config).toMatchObject({
      pageKey: 'page',
      defaultPage: 1,
      limitKey: 'limit',
      defaultLimit: 10,
      maxLimit: 100,
      sortKey: 'sort',
      defaultSort: 'id',
      allowedSorts: undefined,
      offsetKey: 'offset',
      cursorKey: 'cursor',
      cursorParam: '',
      strict: false,
      sortFingerprint: false,
      asyncContext: false,
      maxOffset: Number.POSITIVE_INFINITY,
    })
    expect(config.secrets).toEqual([])
  })

  it('gives empty keys their defaults', () => {
    const config = resolveConfig({
      pageKey: '',
      limitKey: '',
      sortKey: '',
      offsetKey: '',
      cursorKey: '',
      defaultSort: '',
    })
    expect(config).toMatchObject({
      pageKey: 'page',
      limitKey: 'limit',
      sortKey: 'sort',
      offsetKey: 'offset',
      cursorKey: 'cursor',
      defaultSort: 'id',
    })
  })

  it.each([0, -5, 1.5, Number.NaN])('replaces an unusable number %d by its default', (value) => {
    const config = resolveConfig({ defaultPage: value, defaultLimit: value, maxLimit: value })
    expect([config.defaultPage, config.defaultLimit, config.maxLimit]).toEqual([1, 10, 100])
  })

  it('clamps a defaultLimit above maxLimit', () => {
    expect(resolveConfig({ defaultLimit: 50, maxLimit: 20 }).defaultLimit).toBe(20)
  })

  it('falls back to the first allowed sort when defaultSort is not allowed', () => {
    expect(resolveConfig({ defaultSort: 'id', allowedSorts: ['name', 'price'] }).defaultSort).toBe('name')
  })

  it('keeps defaultSort when it is allowed', () => {
    expect(resolveConfig({ defaultSort: 'price', allowedSorts: ['name', 'price'] }).defaultSort).toBe('price')
  })

  it('treats an empty allowedSorts like none', () => {
    const config = resolveConfig({ defaultSort: 'created', allowedSorts: [] })
    expect(config.allowedSorts).toBeUndefined()
    expect(config.defaultSort).toBe('created')
  })

  it('accepts one secret or a list of them', () => {
    expect(resolveConfig({ cursorSecret: 's3cret' }).secrets).toHaveLength(1)
    expect(resolveConfig({ cursorSecret: ['new', Buffer.from('old')] }).secrets).toHaveLength(2)
  })

  it('rejects an empty secret and a negative maxOffset at setup', () => {
    expect(() => resolveConfig({ cursorSecret: '' })).toThrow(TypeError)
    expect(() => resolveConfig({ maxOffset: -1 })).toThrow(TypeError)
  })
})
