import { describe, expect, it } from 'vitest'
import { parseWholeNumber } from './integer.js'

describe('parseWholeNumber', () => {
  it.each([
    ['0', 0],
    ['42', 42],
    ['007', 7],
    ['-3', -3],
    ['+7', 7],
  ])('reads %j as %d', (text, value) => {
    expect(parseWholeNumber(text)).toBe(value)
  })

  it.each(['', '-', '+', '10abc', '1e3', '1.5', ' 1', '1 ', '0x10', 'Infinity', '١'])(
    'rejects %j as unparsable',
    (text) => {
      expect(parseWholeNumber(text)).toBeNaN()
    },
  )

  it('saturates values beyond Number.MAX_SAFE_INTEGER', () => {
    expect(parseWholeNumber('99999999999999999999999')).toBe(Number.MAX_SAFE_INTEGER)
    expect(parseWholeNumber('-99999999999999999999999')).toBe(-Number.MAX_SAFE_INTEGER)
  })
})
