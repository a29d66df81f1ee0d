import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind } from './index.js'

async function query(schema: Parameters<ReturnType<typeof bind>['json']>[0], body: unknown) {
  const app = await makeApp((request) => bind(request).json(schema))
  const res = await app.inject({ method: 'POST', url: '/', payload: body as object })
  return { status: res.statusCode, body: res.json() }
}

describe('validation messages', () => {
  it.each([
    [
      'a pattern',
      Type.Object({ code: Type.String({ pattern: '^[A-Z]{3}$' }) }),
      { code: 'abc' },
      'body/code is not in the expected format',
    ],
    [
      'a union of literals',
      Type.Object({ e: Type.Union([Type.Literal('a'), Type.Literal('b')]) }),
      { e: 'c' },
      'body/e must be "a" or "b"',
    ],
    [
      'a union of a literal and a number literal',
      Type.Object({ e: Type.Union([Type.Literal('a'), Type.Literal(2)]) }),
      { e: 'c' },
      'body/e must be "a" or 2',
    ],
    [
      'a nullable string',
      Type.Object({ s: Type.Union([Type.String(), Type.Null()]) }),
      { s: 5 },
      'body/s must be a string or null',
    ],
    ['an enum', Type.Object({ k: Type.String({ enum: ['x', 'y'] }) }), { k: 'q' }, 'body/k must be one of "x", "y"'],
    ['a literal', Type.Object({ c: Type.Literal('z') }), { c: 'y' }, 'body/c must be "z"'],
    [
      'an email format',
      Type.Object({ m: Type.String({ format: 'email' }) }),
      { m: 'nope' },
      'body/m must be an email address',
    ],
    ['a multiple', Type.Object({ n: Type.Integer({ multipleOf: 2 }) }), { n: 3 }, 'body/n must be a multiple of 2'],
  ])('say what is wrong with %s in plain words', async (_case, schema, body, message) => {
    const res = await query(schema, body)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'WEFT_VALIDATION_FAILED', message })
  })

  it('never show a regular expression or schema keywords to the client', async () => {
    const schema = Type.Object({
      code: Type.String({ pattern: '^[A-Z]{3}$' }),
      e: Type.Union([Type.Literal('a'), Type.Literal('b')]),
      o: Type.Optional(Type.Object({ x: Type.Number() }, { additionalProperties: false })),
    })
    const res = await query(schema, { code: 'abc', e: 'c', o: { x: 1, y: 2 } })
    expect(res.status).toBe(400)
    expect(res.body.message).not.toMatch(/\^|\$|anyOf|constant|schema|pattern/)
  })
})
