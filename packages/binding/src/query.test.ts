import type { TSchema } from 'typebox'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/helpers.js'
import { bind, type WeftBindingOptions } from './index.js'

async function query(schema: TSchema, qs: string, options: WeftBindingOptions = {}) {
  const app = await makeApp((request) => bind(request).query(schema), options)
  const res = await app.inject({ method: 'GET', url: `/?${qs}` })
  return { status: res.statusCode, body: res.json() }
}

const Colors = Type.Object({ colors: Type.Array(Type.String()) })

describe('bind().query()', () => {
  it('converts strings to the schema types', async () => {
    const schema = Type.Object({
      id: Type.Integer(),
      price: Type.Number(),
      active: Type.Boolean(),
      name: Type.String(),
    })
    const res = await query(schema, 'id=42&price=9.5&active=true&name=Ada')
    expect(res).toEqual({ status: 200, body: { id: 42, price: 9.5, active: true, name: 'Ada' } })
  })

  it.each([
    ['7', 7],
    ['+7', 7],
    ['-7', -7],
    ['007', 7],
  ])('reads the integer %s', async (text, value) => {
    expect(await query(Type.Object({ n: Type.Integer() }), `n=${encodeURIComponent(text)}`)).toEqual({
      status: 200,
      body: { n: value },
    })
  })

  it.each(['+', '-', '', '1.5', '1e3', '0x10', ' 7', '7 ', '+-7', '\u0663'])(
    'refuses %j for an integer with a 400 that names the field',
    async (text) => {
      const res = await query(Type.Object({ n: Type.Integer() }), `n=${encodeURIComponent(text)}`)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining('an integer') })
    },
  )

  it('reads the key named by the query tag', async () => {
    const schema = Type.Object({ pageSize: Type.Integer({ query: 'limit' }) })
    expect((await query(schema, 'limit=5')).body).toEqual({ pageSize: 5 })
  })

  it('matches keys case-insensitively', async () => {
    const schema = Type.Object({ pageSize: Type.Integer({ query: 'limit' }) })
    expect((await query(schema, 'LIMIT=5')).body).toEqual({ pageSize: 5 })
  })

  it('gives a scalar field the last of repeated values', async () => {
    const schema = Type.Object({ page: Type.Integer() })
    expect((await query(schema, 'page=1&page=3')).body).toEqual({ page: 3 })
  })

  it.each([
    ['true', true],
    ['1', true],
    ['on', true],
    ['FALSE', false],
    ['0', false],
  ])('reads boolean %s as %s', async (raw, value) => {
    const schema = Type.Object({ flag: Type.Boolean() })
    expect((await query(schema, `flag=${raw}`)).body).toEqual({ flag: value })
  })

  it('converts each member of a union in order', async () => {
    const schema = Type.Object({ v: Type.Union([Type.Integer(), Type.Literal('all')]) })
    expect((await query(schema, 'v=7')).body).toEqual({ v: 7 })
    expect((await query(schema, 'v=all')).body).toEqual({ v: 'all' })
  })

  it('keeps date strings and validates their format', async () => {
    const schema = Type.Object({ since: Type.String({ format: 'date' }) })
    expect((await query(schema, 'since=2024-02-29')).body).toEqual({ since: '2024-02-29' })
    expect((await query(schema, 'since=yesterday')).body.code).toBe('WEFT_VALIDATION_FAILED')
  })
})

describe('query array formats', () => {
  it.each([
    ['repeated key', 'colors=a&colors=b', false, ['a', 'b']],
    ['bracket notation', 'colors[]=a&colors[]=b', false, ['a', 'b']],
    ['indexed brackets', 'colors[1]=b&colors[0]=a', false, ['a', 'b']],
    ['comma-separated without splitting', 'colors=a,b,c', false, ['a,b,c']],
    ['comma-separated with splitting', 'colors=a,b,c', true, ['a', 'b', 'c']],
    ['commas mixed with repeated keys, splitting', 'colors=a,b&colors=c', true, ['a', 'b', 'c']],
    ['commas mixed with brackets, splitting', 'colors[]=a,b&colors[]=c', true, ['a', 'b', 'c']],
    ['repeated and bracket keys together', 'colors=a&colors[]=b', false, ['a', 'b']],
  ])('%s: ?%s', async (_name, qs, enableSplittingOnParsers, colors) => {
    expect((await query(Colors, qs, { enableSplittingOnParsers })).body).toEqual({ colors })
  })

  it('converts array items to the item type', async () => {
    const schema = Type.Object({ ids: Type.Array(Type.Integer()) })
    expect((await query(schema, 'ids=1,2&ids=3', { enableSplittingOnParsers: true })).body).toEqual({ ids: [1, 2, 3] })
  })

  it('binds a list of its own: changing it leaves request.query as received', async () => {
    const schema = Type.Object({ ids: Type.Array(Type.Integer()), tags: Type.Array(Type.String()) })
    const app = await makeApp(async (request) => {
      const bound = await bind(request).query(schema)
      bound.tags.push('added')
      bound.ids[0] = 99
      return { bound, query: request.query }
    })
    const res = await app.inject({ method: 'GET', url: '/?ids=1&ids=2&tags=a&tags=b' })
    expect(res.json()).toEqual({
      bound: { ids: [99, 2], tags: ['a', 'b', 'added'] },
      query: { ids: ['1', '2'], tags: ['a', 'b'] },
    })
  })

  it('reads lists of nested objects from indexed brackets, closing gaps', async () => {
    const schema = Type.Object({ posts: Type.Array(Type.Object({ title: Type.String() })) })
    const res = await query(schema, 'posts[0][title]=x&posts[5][title]=y')
    expect(res.body).toEqual({ posts: [{ title: 'x' }, { title: 'y' }] })
  })

  it('reads nested objects from brackets and dots', async () => {
    const schema = Type.Object({
      preferences: Type.Object({ tags: Type.Array(Type.String()), theme: Type.String() }),
    })
    const res = await query(schema, 'preferences[tags]=a,b&preferences.theme=dark', { enableSplittingOnParsers: true })
    expect(res.body).toEqual({ preferences: { tags: ['a', 'b'], theme: 'dark' } })
  })

  it('rejects an array index above 1000 with a BindError', async () => {
    const schema = Type.Object({ posts: Type.Array(Type.Object({ title: Type.String() })) })
    const res = await query(schema, 'posts[1001][title]=x')
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('WEFT_BIND_ERROR')
    expect(res.body.message).toContain('posts[1001]')
  })

  it('skips keys of no field whose brackets pair up (or that have no "[")', async () => {
    expect((await query(Colors, 'colors=a&utm[source]=x&ref]=y&a.b=1')).body).toEqual({ colors: ['a'] })
  })

  it('rejects a key of no field whose brackets do not pair up, as Fiber does', async () => {
    const res = await query(Colors, 'colors=a&utm[source=x')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining('utm[source') })
  })

  it.each(['posts[0[title]=x', 'posts]0[=x', 'posts[0]x=1'])('rejects unbalanced brackets: %s', async (qs) => {
    const schema = Type.Object({ posts: Type.Array(Type.Object({ title: Type.String() })) })
    const res = await query(schema, qs)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('WEFT_BIND_ERROR')
  })
})

describe('optional fields and defaults', () => {
  const schema = Type.Object({
    q: Type.Optional(Type.String()),
    limit: Type.Integer({ default: 20 }),
    tags: Type.Array(Type.String(), { default: ['new', 'hot'] }),
    sizes: Type.Array(Type.Integer(), { default: '1|2|3' }),
  })

  it('leaves absent optional fields undefined and fills defaults', async () => {
    expect((await query(schema, '')).body).toEqual({ limit: 20, tags: ['new', 'hot'], sizes: [1, 2, 3] })
  })

  it('sets a present optional field even when empty', async () => {
    expect((await query(schema, 'q=')).body).toMatchObject({ q: '' })
  })

  it('uses the default only when the key is absent', async () => {
    expect((await query(schema, 'limit=5&tags=x')).body).toMatchObject({ limit: 5, tags: ['x'] })
  })

  it('treats an empty value of a number field as a conversion error', async () => {
    const res = await query(schema, 'limit=')
    expect(res.body).toMatchObject({ code: 'WEFT_BIND_ERROR' })
  })

  it.each([
    ['0', 0],
    ['-0.5', -0.5],
    ['%2012.5%20', 12.5],
    ['%20%20', 'WEFT_BIND_ERROR'],
    ['%09', 'WEFT_BIND_ERROR'],
    ['0x', 'WEFT_BIND_ERROR'],
    ['Infinity', 'WEFT_BIND_ERROR'],
  ])('reads the number text %s as %s', async (text, expected) => {
    const res = await query(Type.Object({ price: Type.Number() }), `price=${text}`)
    if (typeof expected === 'number') expect(res.body).toEqual({ price: expected })
    else expect(res.body).toMatchObject({ code: expected })
  })

  it('reports a missing required field as a ValidationError', async () => {
    const res = await query(Type.Object({ id: Type.Integer() }), '')
    expect(res.body).toMatchObject({
      code: 'WEFT_VALIDATION_FAILED',
      message: 'query/id is required',
    })
  })
})

describe('prototype safety', () => {
  it.each(['__proto__[polluted]=1', 'constructor[prototype][polluted]=1', 'a[__proto__][polluted]=1', 'prototype=1'])(
    'never lets %s reach a prototype',
    async (qs) => {
      const schema = Type.Object({ a: Type.Optional(Type.Object({ b: Type.Optional(Type.String()) })) })
      const res = await query(schema, qs)
      expect(res.status).toBeLessThan(500)
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    },
  )
})
