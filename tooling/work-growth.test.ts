import { describe, expect, it } from 'vitest'
import { GROWTH_FACTOR, LINEAR_BOUND, measureGrowth } from './work-growth.ts'

/** Sums character codes once: linear in `text`. */
function linear(text: string): number {
  let sum = 0
  for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i)
  return sum
}

/** From each position, looks back for the first character: quadratic in `text` ('ab…b'). */
function quadratic(text: string): number {
  let found = 0
  for (let i = 0; i < text.length; i++) found += text.lastIndexOf('a', i) >= 0 ? 1 : 0
  return found
}

describe('measureGrowth tells linear from quadratic work', () => {
  const input = (size: number) => `a${'b'.repeat(size)}`

  it('a linear pass stays within the bound', async () => {
    const size = 256 * 1024
    const growth = await measureGrowth(
      async () => linear(input(size)),
      async () => linear(input(size * GROWTH_FACTOR)),
    )
    expect(growth.ratio).toBeLessThanOrEqual(LINEAR_BOUND)
  })

  it('a quadratic pass crosses it', async () => {
    const size = 2 * 1024
    const growth = await measureGrowth(
      async () => quadratic(input(size)),
      async () => quadratic(input(size * GROWTH_FACTOR)),
    )
    expect(growth.ratio).toBeGreaterThan(LINEAR_BOUND)
  })
})
