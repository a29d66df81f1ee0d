import { describe, expect, it } from 'vitest'
import { median, pairedRatio, quartiles, roundRatios } from './stats.js'

describe('median', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([])).toBeNaN()
  })
})

describe('roundRatios and pairedRatio', () => {
  it('divides each candidate round by the baseline round measured with it', () => {
    expect(roundRatios([90, 100, 120], [100, 100, 100])).toEqual([0.9, 1, 1.2])
    expect(pairedRatio([90, 100, 120], [100, 100, 100])).toBe(1)
  })

  it('leaves out rounds without a finite ratio (a baseline of 0, a missing round)', () => {
    expect(roundRatios([50, 60, 70], [0, 100])).toEqual([0.6])
  })
})

describe('quartiles', () => {
  it('bounds the middle half of the values', () => {
    expect(quartiles([1, 2, 3, 4, 5, 6, 7, 8])).toEqual([2.5, 6.5])
    expect(quartiles([5, 1, 4, 2, 3])).toEqual([1.5, 4.5])
  })

  it('is the value itself for a single round, and NaN for none', () => {
    expect(quartiles([0.97])).toEqual([0.97, 0.97])
    expect(quartiles([])).toEqual([Number.NaN, Number.NaN])
  })
})
