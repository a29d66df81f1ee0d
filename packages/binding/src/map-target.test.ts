import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp, multipart } from '../test/helpers.js'
import { bind, type WeftBindingOptions } from './index.js'

const Strings = Type.Record(Type.String(), Type.String())
const Lists = Type.Record(Type.String(), Type.Array(Type.String()))
const Either = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]))
const Numbers = Type.Record(Type.String(), Type.Integer())

type Op = 'query' | 'header' | 'cookie' | 'form'

async function run(
  op: Op,
  schema: Parameters<ReturnType<typeof bind>['query']>[0],
  request: Record<string, unknown>,
  options: WeftBindingOptions = {},
) {
  const app = await makeApp((req) => bind(req)[op](schema), options)
  const res = await app.inject({ method: 'POST', url: '/', ...request })
  return { status: res.statusCode, body: res.json() }
}

describe('map-shaped targets (Type.Record(Type.String(), …))', () => {
  it.each([
    ['Record(String, String) takes the last value', Strings, { a: '2', b: 'x' }],
    ['Record(String, Array(String)) takes every value', Lists, { a: ['1', '2'], b: ['x'] }],
    ['Record(String, String | Array(String)) takes one value or the list', Either, { a: ['1', '2'], b: 'x' }],
  ])('query: %s', async (_name, schema, expected) => {
    expect(await run('query', schema, { url: '/?a=1&a=2&b=x' })).toEqual({ status: 200, body: expected })
  })

  it('query: bracket keys become dotted keys, as in Fiber', async () => {
    const res = await run('query', Lists, { url: '/?tags[]=a&tags[]=b&prefs[theme]=dark' })
    expect(res.body).toEqual({ tags: ['a', 'b'], 'prefs.theme': ['dark'] })
  })

  it('query: splits comma lists with enableSplittingOnParsers', async () => {
    const res = await run('query', Lists, { url: '/?a=1,2&b=x' }, { enableSplittingOnParsers: true })
    expect(res.body).toEqual({ a: ['1', '2'], b: ['x'] })
  })

  it('query: converts values by the value schema', async () => {
    expect(await run('query', Numbers, { url: '/?a=1&b=22' })).toEqual({ status: 200, body: { a: 1, b: 22 } })
    const bad = await run('query', Numbers, { url: '/?a=x' })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: 'cannot bind query field "a": "x" is not an integer',
    })
  })

  it('query: keeps __proto__ an ordinary key', async () => {
    const res = await run('query', Strings, { url: '/?__proto__=x&a=1' })
    expect(Object.entries(res.body)).toEqual([
      ['__proto__', 'x'],
      ['a', '1'],
    ])
    expect(({} as Record<string, unknown>).a).toBeUndefined()
  })

  it('header: every request header', async () => {
    const res = await run('header', Strings, { url: '/', headers: { 'x-a': '1', 'x-b': '2' } })
    expect(res.body).toMatchObject({ 'x-a': '1', 'x-b': '2' })
  })

  it('cookie: every cookie', async () => {
    const res = await run('cookie', Strings, { url: '/', headers: { cookie: 'a=1; b=two' } })
    expect(res.body).toEqual({ a: '1', b: 'two' })
  })

  it.each([
    ['urlencoded', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1&a=2&b=x' }],
    [
      'multipart',
      multipart([
        { name: 'a', value: '1' },
        { name: 'a', value: '2' },
        { name: 'b', value: 'x' },
        { name: 'doc', filename: 'a.txt', type: 'text/plain', content: 'not a value' },
      ]),
    ],
  ])('form (%s): every field, files left out', async (_name, request) => {
    expect(await run('form', Lists, { url: '/', ...request })).toEqual({
      status: 200,
      body: { a: ['1', '2'], b: ['x'] },
    })
  })

  it('form: binding into a map skips the struct validator, as in Fiber', async () => {
    const Limited = Type.Record(Type.String(), Type.String({ maxLength: 1 }))
    const request = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=long' }
    expect(await run('form', Limited, { url: '/', ...request })).toEqual({ status: 200, body: { a: 'long' } })
  })
})

describe('malformed bracket keys', () => {
  const Search = Type.Object({ q: Type.Optional(Type.String()) })

  it.each(['a[b=1', 'a[b][c=1', 'a]b[=1', 'q[=1'])('query %s is a BindError with source query', async (query) => {
    const res = await run('query', Search, { url: `/?${query}` })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({
      code: 'WEFT_BIND_ERROR',
      message: expect.stringMatching(/^cannot bind query field/),
    })
  })

  it('a form key a[b is a BindError too', async () => {
    const request = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a%5Bb=1' }
    expect((await run('form', Search, { url: '/', ...request })).body.code).toBe('WEFT_BIND_ERROR')
  })

  it.each([
    ['a text field', { name: 'invalid[', value: 'val' }],
    ['a file', { name: 'invalid[', filename: 'file.txt', type: 'text/plain', content: 'content' }],
  ])('a multipart %s named invalid[ is a BindError (unmatched brackets), as in Fiber', async (_name, part) => {
    const res = await run('form', Type.Object({}), { url: '/', ...multipart([part]) })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining('unmatched brackets') })
  })

  it('a map target rejects a[b as well', async () => {
    expect((await run('query', Strings, { url: '/?a[b=1' })).body.code).toBe('WEFT_BIND_ERROR')
  })

  it('reports the source as query through all()', async () => {
    const app = await makeApp(async (req) => {
      try {
        return await bind(req).all(Search)
      } catch (err) {
        return { source: (err as { source?: string }).source }
      }
    })
    expect((await app.inject({ url: '/?a[b=1' })).json()).toEqual({ source: 'query' })
  })

  it('leaves headers and cookies alone (no bracket notation there)', async () => {
    const res = await run('cookie', Search, { url: '/', headers: { cookie: 'a[b=1; q=x' } })
    expect(res).toEqual({ status: 200, body: { q: 'x' } })
  })
})
