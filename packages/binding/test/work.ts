import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'

/** The shortest of `repetitions` runs of `run`, in milliseconds. */
async function fastest(run: () => Promise<unknown>, repetitions: number): Promise<number> {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < repetitions; i++) {
    const start = performance.now()
    await run()
    best = Math.min(best, performance.now() - start)
  }
  return best
}

/**
 * Asserts that the request built by `request(size)` costs about linear time in `size`: at four
 * times the size, at most eight times the time (a quadratic path gives sixteen or more). Times
 * under 3 ms count as 3 ms, so that timer noise on a busy machine does not fail a fast path.
 * Returns the answer to the larger request, for the test to check what the client saw.
 */
export async function expectLinearWork(
  app: FastifyInstance,
  request: (size: number) => InjectOptions,
  size: number,
  repetitions = 7,
): Promise<LightMyRequestResponse> {
  const small = request(size)
  const large = request(size * 4)
  // both sizes once first: the first run of a path pays for its compilation
  await app.inject(small)
  await app.inject(large)
  const smallTime = await fastest(() => app.inject(small), repetitions)
  const largeTime = await fastest(() => app.inject(large), repetitions)
  expect(largeTime, `${size * 4}: ${largeTime.toFixed(1)} ms, ${size}: ${smallTime.toFixed(1)} ms`).toBeLessThanOrEqual(
    Math.max(smallTime, 3) * 8,
  )
  return app.inject(large)
}
