import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatFailure, fuzzTarget, type TargetFigures } from '../src/fuzz/runner.js'
import type { FuzzTarget } from '../src/fuzz/target.js'
import { apiATarget } from '../src/fuzz/targets/api-a.js'
import { apiBTarget } from '../src/fuzz/targets/api-b.js'
import { testAppTarget } from '../src/fuzz/targets/test-app.js'
import { formatWorkFinding, type WorkFigures, workOracle } from '../src/fuzz/work/oracle.js'
import { surfacesOf } from '../src/fuzz/work/shapes.js'
import { budget, full } from '../src/mode.js'
import { recordFigures } from '../src/report/figures.js'

/** Fuzzing then the work oracle: twice the config's hook timeout (a busy machine slows both). */
const setupTimeout = full || process.env.RELIABILITY_FUZZ_INPUTS !== undefined ? 7_200_000 : 240_000

/** Heap growth (after full GCs) a fuzz run may show between its first family and its end. */
const heapBound = 64 * 1024 * 1024

describe.each([
  ['the test app (context, binding, pagination)', testAppTarget],
  ['API A', apiATarget],
  ['API B', apiBTarget],
])('fuzzing %s', (_name, start) => {
  let target: FuzzTarget
  let figures: TargetFigures
  let work: WorkFigures

  beforeAll(async () => {
    target = await start()
    const began = Date.now()
    figures = await fuzzTarget(target, { inputs: budget.fuzzInputs })
    recordFigures(['fuzz', target.name], { ...figures, seconds: (Date.now() - began) / 1000 })
    work = await workOracle(target, { shapesPerSurface: budget.workShapes })
    recordFigures(['fuzz', target.name, 'work'], work)
  }, setupTimeout)
  afterAll(async () => {
    await target?.close()
  })

  it('tries every generated input', () => {
    expect(figures.inputs).toBeGreaterThanOrEqual(budget.fuzzInputs)
  })

  it('sends every operation, and reaches past the auth check of every secured one', () => {
    const operations = target.operations ?? []
    const unsent = operations.filter((op) => Object.keys(figures.operations[op.name] ?? {}).length === 0)
    expect(unsent.map((op) => op.name)).toEqual([])
    const neverPastAuth = operations
      .filter((op) => op.secured)
      .filter((op) => Object.keys(figures.operations[op.name] ?? {}).every((status) => status === '401'))
    expect(neverPastAuth.map((op) => op.name)).toEqual([])
  })

  it('answers every input without a 5xx, a document violation, a leaking log line or a broken contract, prototypes untouched', () => {
    expect(figures.failures.map(formatFailure)).toEqual([])
  })

  it('counts no finding of any kind', () => {
    expect(figures.findings).toEqual({ '5xx': 0, document: 0, leakingLogLines: 0, contract: 0, crash: 0, prototype: 0 })
  })

  it('throws nothing uncaught', () => {
    expect(figures.uncaughtExceptions).toEqual([])
  })

  it('measures growth of every request header it reads, the query string and every body type', () => {
    if (process.env.RELIABILITY_FAMILY !== undefined) return // a replay of one family or shape
    const measured = Object.entries(work.surfaces).filter(([, s]) => (s?.shapes ?? 0) >= budget.workShapes)
    expect(measured.map(([surface]) => surface)).toEqual(surfacesOf(target.routes))
    expect(measured.map(([surface]) => surface)).toEqual(
      expect.arrayContaining([
        'query',
        'body json',
        'body form',
        'body multipart',
        'body xml',
        'body msgpack',
        'body cbor',
      ]),
    )
  })

  it('does work linear in every input: twice the bytes never cost over 2.5 times the CPU time', () => {
    expect(work.findings.map(formatWorkFinding)).toEqual([])
  })

  it('keeps its heap bounded', () => {
    expect(figures.heap.growth).toBeLessThan(heapBound)
  })
})
