import { describeGrowth, GROWTH_FACTOR, LINEAR_BOUND, measureGrowth } from '@weft/tooling/work-growth'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'

/**
 * Asserts that the request built by `request(size)` costs about linear CPU time in `size`
 * (see @weft/tooling/work-growth for how). Returns the answer to the larger request, for the test
 * to check what the client saw.
 */
export async function expectLinearWork(
  app: FastifyInstance,
  request: (size: number) => InjectOptions,
  size: number,
): Promise<LightMyRequestResponse> {
  const small = request(size)
  const large = request(size * GROWTH_FACTOR)
  const growth = await measureGrowth(
    () => app.inject(small),
    () => app.inject(large),
  )
  expect(growth.ratio, describeGrowth(growth)).toBeLessThanOrEqual(LINEAR_BOUND)
  return app.inject(large)
}
