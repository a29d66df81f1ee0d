import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'

const Order = Type.Object({
  id: Type.Integer(),
  tags: Type.Array(Type.String()),
  lines: Type.Array(Type.Object({ sku: Type.String(), sizes: Type.Array(Type.Object({ cm: Type.Number() })) })),
  ship: Type.Object({ address: Type.Object({ zip: Type.String() }) }),
})

const valid = { id: 1, tags: ['a'], lines: [{ sku: 'x', sizes: [{ cm: 1 }] }], ship: { address: { zip: '1' } } }

async function post(body: unknown) {
  const app = await makeApp((request) => bind(request).json(Order))
  const res = await app.inject({ method: 'POST', url: '/', payload: body as object })
  return { status: res.statusCode, body: res.json() }
}

describe('bind().json() names the path of what failed, however deep', () => {
  it.each([
    ['a top-level key', { ...valid, id: 'x' }, 'id'],
    ['an array item', { ...valid, tags: ['a', 5] }, 'tags[1]'],
    ['a key of an object in an array', { ...valid, lines: [valid.lines[0], { sku: 7, sizes: [] }] }, 'lines[1].sku'],
    [
      'arrays in arrays of objects',
      { ...valid, lines: [{ sku: 'x', sizes: [{ cm: 1 }, { cm: '2' }] }] },
      'lines[0].sizes[1].cm',
    ],
    ['nested objects', { ...valid, ship: { address: { zip: 1 } } }, 'ship.address.zip'],
    ['a nested value of the wrong kind', { ...valid, ship: { address: [] } }, 'ship.address'],
  ])('%s', async (_case, body, field) => {
    const res = await post(body)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(`field "${field}"`)
  })

  it('binds a valid body as it came, with fresh arrays and objects', async () => {
    const res = await post(valid)
    expect([res.status, res.body]).toEqual([200, valid])
  })
})
