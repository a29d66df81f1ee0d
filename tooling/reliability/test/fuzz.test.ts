import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatFailure, fuzzTarget, type TargetFigures } from '../src/fuzz/runner.js'
import type { FuzzTarget } from '../src/fuzz/target.js'
import { apiATarget } from '../src/fuzz/targets/api-a.js'
import { apiBTarget } from '../src/fuzz/targets/api-b.js'
import { testAppTarget } from '../src/fuzz/targets/test-app.js'
import { budget } from '../src/mode.js'
import { recordFigures } from '../src/report/figures.js'

/** Heap growth (after full GCs) a fuzz run may show between its first family and its end. */
const heapBound = 64 * 1024 * 1024

describe.each([
  ['the test app (context, binding, pagination)', testAppTarget],
  ['API A', apiATarget],
  ['API B', apiBTarget],
])('fuzzing %s', (_name, start) => {
  let target: FuzzTarget
  let figures: TargetFigures

  beforeAll(async () => {
    target = await start()
    const began = Date.now()
    figures = await fuzzTarget(target, { inputs: budget.fuzzInputs })
    recordFigures(['fuzz', target.name], { ...figures, seconds: (Date.now() - began) / 1000 })
  })
  afterAll(async () => {
    await target?.close()
  })

  it('tries every generated input', () => {
    expect(figures.inputs).toBeGreaterThanOrEqual(budget.fuzzInputs)
  })

  it('answers every input without a 5xx, in the documented error shape, prototypes untouched', () => {
    expect(figures.failures.map(formatFailure)).toEqual([])
  })

  it('throws nothing uncaught', () => {
    expect(figures.uncaughtExceptions).toEqual([])
  })

  it('keeps its heap bounded', () => {
    expect(figures.heap.growth).toBeLessThan(heapBound)
  })
})
