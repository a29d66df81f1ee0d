import { describe, expect, it } from 'vitest'
import { arrayIndex, splitKey } from './path.js'

describe('splitKey', () => {
  it.each([
    ['colors', ['colors']],
    ['colors[]', ['colors', '']],
    ['posts[0][title]', ['posts', '0', 'title']],
    ['preferences[tags]', ['preferences', 'tags']],
    ['a.b', ['a', 'b']],
    ['a.b[c]', ['a', 'b', 'c']],
  ])('splits %s', (key, path) => {
    expect(splitKey(key)).toEqual(path)
  })

  it.each(['a[b', 'a]b', 'a[b]c', '[a]', 'a[[b]]', 'a..b', `a${'[x]'.repeat(40)}`])(
    'rejects %s with a message',
    (key) => {
      expect(typeof splitKey(key)).toBe('string')
    },
  )
})

describe('arrayIndex', () => {
  it.each([
    ['0', 0],
    ['1000', 1000],
    ['007', 7],
    ['1001', -1],
    ['99999999999', -1],
    ['-1', -1],
    ['1e3', -1],
    ['', -1],
  ])('reads %s as %d', (segment, index) => {
    expect(arrayIndex(segment)).toBe(index)
  })
})
