import { type LintProblem, lintOpenApi } from '@weft/tooling/redocly'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApi } from './support.js'

describe('the OpenAPI document under redocly lint (recommended rules)', () => {
  const api = useTestApi('pglite', 'redocly')
  let problems: LintProblem[]
  beforeAll(async () => {
    await api.app.ready()
    problems = await lintOpenApi(api.app.swagger())
  })

  it('reports no error', () => {
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
  })

  it('warns only that the health check has no 4XX answer (it has none)', () => {
    expect(problems.map((p) => `${p.ruleId} ${p.pointer}`)).toEqual([
      'operation-4xx-response #/paths/~1api~1health/get/responses',
    ])
  })
})
