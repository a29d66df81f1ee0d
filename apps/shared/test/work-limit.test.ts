import { describe, expect, it } from 'vitest'
import { createWorkLimit } from '../src/auth/work-limit.js'

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('createWorkLimit', () => {
  it('never runs more than its concurrency at once, in arrival order', async () => {
    const limit = createWorkLimit(2, 100, () => new Error('full'))
    let running = 0
    let most = 0
    const order: number[] = []
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        limit.run(async () => {
          running++
          most = Math.max(most, running)
          order.push(i)
          await tick()
          running--
        }),
      ),
    )
    expect(most).toBe(2)
    expect(order).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('throws the error `full` makes when too many tasks wait, and recovers', async () => {
    const limit = createWorkLimit(1, 1, () => new Error('queue full'))
    const slow = [limit.run(tick), limit.run(tick)]
    await expect(limit.run(tick)).rejects.toThrow('queue full')
    await Promise.all(slow)
    await expect(limit.run(async () => 'ok')).resolves.toBe('ok')
  })

  it('frees the slot of a task that fails', async () => {
    const limit = createWorkLimit(1, 10, () => new Error('full'))
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(limit.run(async () => 'next')).resolves.toBe('next')
  })
})
