import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'

// An object schema without properties is a schema like any other: binding it is no server error.
describe('object schemas without properties', () => {
  it.each([
    ['application/json', '{"m":{"x":1}}'],
    ['application/x-www-form-urlencoded', 'x=1'],
    ['application/xml', '<r><m><x>1</x></m></r>'],
  ])('bind a %s body to Type.Object({}) at the top and nested', async (type, payload) => {
    for (const schema of [Type.Object({}), Type.Object({ m: Type.Optional(Type.Object({})) })]) {
      const app = await makeApp((request) => bind(request).body(schema))
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': type }, payload })
      expect(res.statusCode).toBeLessThan(500)
    }
  })

  it('keeps no unknown key of a JSON body', async () => {
    const app = await makeApp((request) => bind(request).body(Type.Object({ m: Type.Object({}) })))
    const headers = { 'content-type': 'application/json' }
    const res = await app.inject({ method: 'POST', url: '/', headers, payload: '{"m":{"x":1}}' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ m: {} })
  })
})
