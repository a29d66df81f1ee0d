import { type LintProblem, lintOpenApi } from '@weft/tooling/redocly'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type TestApp } from './support.js'

describe('the OpenAPI document under redocly lint (recommended rules)', () => {
  let t: TestApp
  let problems: LintProblem[]
  beforeAll(async () => {
    t = await startApp('pglite', 'redocly')
    await t.app.ready()
    problems = await lintOpenApi(t.app.swagger())
  })
  afterAll(() => t?.close())

  it('reports no error', () => {
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
  })

  it('warns only that the health check has no 4XX answer (it has none)', () => {
    expect(problems.map((p) => `${p.ruleId} ${p.pointer}`)).toEqual([
      'operation-4xx-response #/paths/~1api~1health/get/responses',
    ])
  })
})
