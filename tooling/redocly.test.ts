import { describe, expect, it } from 'vitest'
import { lintOpenApi } from './redocly.js'

describe('lintOpenApi', () => {
  it('reports the errors of a broken document with their rule and place', async () => {
    const problems = await lintOpenApi({
      openapi: '3.1.0',
      info: { title: 't', version: '1', license: { name: 'MIT', identifier: 'MIT' } },
      servers: [{ url: '/' }],
      security: [],
      paths: {
        '/items/{id}': {
          get: { operationId: 'getItem', summary: 'an item', responses: { 200: { description: 'it' } } },
        },
      },
    })
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.pointer}`)
    expect(errors).toEqual(['path-parameters-defined #/paths/~1items~1{id}/get/parameters'])
  })
})
