import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_OFFSET } from '../src/schemas/products.js'
import { bearer, outcome, signUp, startApp, type TestApp } from './support.js'

interface Parameter {
  name: string
  in: string
  schema: { type?: string }
  description?: string
}

describe.each(testDatabaseKinds())('GET /api/products: page, limit and offset on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp(kind, 'product_query')
    const owner = await signUp(t.app)
    for (const amount of [1, 2, 3]) {
      await t.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: bearer(owner.access),
        payload: { title: `item ${amount}`, amount },
      })
    }
  })
  afterAll(() => t?.close())

  const list = (query: string) => t.app.inject({ method: 'GET', url: `/api/products?${query}` })

  it.each([
    ['a word', 'page=abc', 'page', 'integer'],
    ['a fraction', 'page=1.5', 'page', 'integer'],
    ['an exponent', 'offset=1e3', 'offset', 'integer'],
    ['an empty value', 'page=', 'page', 'integer'],
    ['a hexadecimal number', 'limit=0x10', 'limit', 'integer'],
    ['a number with a space', 'limit=%2010', 'limit', 'integer'],
    ['a number with a unit', 'limit=10px', 'limit', 'integer'],
    ['a sign alone', 'offset=-', 'offset', 'integer'],
    ['a parameter given twice', 'page=1&page=2', 'page', 'single'],
  ])('answers 400 VALIDATION_FAILED naming the parameter for %s (%s)', async (_name, query, field, rule) => {
    const res = await list(query)
    expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
    expect(res.json().errors).toEqual([expect.objectContaining({ field, rule })])
    expect(res.json().message).toMatch(new RegExp(`^${field} must be`))
  })

  it('names every parameter at fault, in one answer', async () => {
    const res = await list('page=abc&limit=1.5&offset=')
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['page', 'limit', 'offset'])
    expect(res.json().message).toBe(
      'page must be an integer written in digits, such as 2; limit must be an integer written in digits, such as 2; ' +
        'offset must be an integer written in digits, such as 2',
    )
  })

  it.each([
    ['a negative limit, as the default', 'limit=-1', { limit: 10 }],
    [
      'a page past the deepest, however large, as the deepest',
      'page=99999999999999999999',
      { page: MAX_OFFSET / 10 + 1 },
    ],
    ['a negative offset, as 0', 'offset=-5', { offset: 0 }],
    ['an offset past the deepest as the deepest', 'offset=200000', { offset: MAX_OFFSET }],
    ['a signed page', 'page=%2B2&limit=1', { page: 2, limit: 1 }],
    ['leading zeros', 'page=002&limit=01', { page: 2, limit: 1 }],
  ])('clamps an integer out of range: %s (%s)', async (_name, query, applied) => {
    const res = await list(query)
    expect(res.statusCode).toBe(200)
    expect(res.json().meta.pagination).toMatchObject(applied)
  })

  it('ignores a parameter it does not list and a sort field that is not allowed', async () => {
    const unknown = await list('colour=red&limit=2')
    expect(unknown.statusCode).toBe(200)
    expect(unknown.json().meta.pagination).toMatchObject({ limit: 2 })
    const res = await list('sort=weight,-amount&limit=2')
    expect(res.statusCode).toBe(200)
    expect(res.json().meta.pagination).toMatchObject({ limit: 2, sort: [{ field: 'amount', order: 'desc' }] })
  })

  it('documents them as integers, what is clamped, and the 400 for anything else', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json()
    const operation = doc.paths['/api/products'].get
    const parameters = operation.parameters as Parameter[]
    for (const name of ['page', 'limit', 'offset']) {
      const parameter = parameters.find((p) => p.name === name && p.in === 'query')
      expect(parameter?.schema.type, name).toBe('integer')
      expect(parameter?.description, name).toMatch(/any integer/)
    }
    expect(operation.description).toMatch(/`abc`, `1\.5`, `1e3`, an empty value, a parameter given twice\) is a 400/)
    expect(JSON.stringify(operation.responses['400'])).toContain('VALIDATION_FAILED')
  })
})
