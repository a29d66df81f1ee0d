import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp, multipart } from '../test/helpers.js'
import { type BindingSourceList, bind, FileField } from './index.js'

/** A bindingSource list as untyped code may pass it (spaces, unknown names): checked at run time. */
const untyped = (list: string) => list as BindingSourceList

const Search = Type.Object({
  id: Type.Optional(Type.String({ uri: 'id', query: 'id', header: 'X-Id', cookie: 'id', json: 'id' })),
  limit: Type.Integer({ default: 20, maximum: 100 }),
  role: Type.Optional(Type.String({ header: 'X-Role' })),
})

async function all(schema: typeof Search | ReturnType<typeof Type.Object>, request: Record<string, unknown>) {
  const app = await makeApp((req) => bind(req).all(schema))
  const res = await app.inject({ method: 'POST', url: '/', ...request })
  return { status: res.statusCode, body: res.json() }
}

describe('bind().all()', () => {
  it.each([
    ['uri over everything', { url: '/items/u?id=q', headers: { 'x-id': 'h', cookie: 'id=c' } }, 'u'],
    ['body over query', { url: '/?id=q', headers: { 'content-type': 'application/json' }, payload: '{"id":"b"}' }, 'b'],
    ['query over header', { url: '/?id=q', headers: { 'x-id': 'h', cookie: 'id=c' } }, 'q'],
    ['header over cookie', { url: '/', headers: { 'x-id': 'h', cookie: 'id=c' } }, 'h'],
    ['cookie last', { url: '/', headers: { cookie: 'id=c' } }, 'c'],
  ])('takes %s', async (_name, request, id) => {
    expect((await all(Search, request)).body).toMatchObject({ id })
  })

  it('fills each field from the first source that has it', async () => {
    const res = await all(Search, { url: '/?limit=5', headers: { 'x-role': 'admin', cookie: 'id=c' } })
    expect(res.body).toEqual({ id: 'c', limit: 5, role: 'admin' })
  })

  it('applies defaults only when no source has the field', async () => {
    expect((await all(Search, { url: '/' })).body).toEqual({ limit: 20 })
  })

  it('ignores an empty JSON body (no 400 for it)', async () => {
    const res = await all(Search, { url: '/?id=q', headers: { 'content-type': 'application/json' }, payload: '' })
    expect(res).toEqual({ status: 200, body: { id: 'q', limit: 20 } })
  })

  it('ignores an empty body, whatever its Content-Type', async () => {
    const res = await all(Search, { url: '/?id=q', headers: { 'content-type': 'text/plain' }, payload: '' })
    expect(res.body).toMatchObject({ id: 'q' })
  })

  it('takes form fields and files from a multipart body, or leaves files out with files: false', async () => {
    const Upload = Type.Object({ title: Type.String(), doc: Type.Optional(FileField()) })
    const body = multipart([
      { name: 'title', value: 'T' },
      { name: 'doc', filename: 'a.txt', type: 'text/plain', content: 'x' },
    ])
    const withFiles = await makeApp(async (req) => {
      const out = await bind(req).all(Upload)
      return { title: out.title, doc: out.doc?.filename }
    })
    const withoutFiles = await makeApp(async (req) => Object.keys(await bind(req).all(Upload, { files: false })))
    expect((await withFiles.inject({ method: 'POST', url: '/?title=Q', ...body })).json()).toEqual({
      title: 'T',
      doc: 'a.txt',
    })
    expect((await withoutFiles.inject({ method: 'POST', url: '/', ...body })).json()).toEqual(['title'])
  })

  it('validates the merged value', async () => {
    expect((await all(Search, { url: '/?limit=500' })).body.code).toBe('WEFT_VALIDATION_FAILED')
  })

  it('binds only the sources a bindingSource list names, for every field', async () => {
    const schema = Type.Object({
      id: Type.Optional(Type.Integer({ uri: 'id' })),
      token: Type.Optional(Type.String({ header: 'X-Token', query: 'token', bindingSource: 'header,query' })),
      page: Type.Optional(Type.Integer()),
    })
    const res = await all(schema, { url: '/items/7?token=q&page=2', headers: { 'x-token': 'h', cookie: 'page=3' } })
    expect(res.body).toEqual({ token: 'h', page: 2 })
  })

  it('falls back to the next listed source', async () => {
    const schema = Type.Object({ token: Type.String({ header: 'X-Token', bindingSource: 'header,query' }) })
    expect((await all(schema, { url: '/?token=q' })).body).toEqual({ token: 'q' })
  })

  it.each([
    ['query,body', { id: 'q', n: 1 }],
    ['body,query', { id: 'b', n: 2 }],
    ['cookie,query,body', { id: 'c', n: 1 }],
    ['header,uri', {}],
  ])('follows the listed order %s for every field, earlier sources winning', async (list, expected) => {
    const schema = Type.Object({
      id: Type.Optional(Type.String({ bindingSource: untyped(list) })),
      n: Type.Optional(Type.Integer()),
    })
    const res = await all(schema, {
      url: '/?id=q&n=1',
      headers: { 'content-type': 'application/json', cookie: 'id=c' },
      payload: '{"id":"b","n":2}',
    })
    expect(res).toEqual({ status: 200, body: expected })
  })

  it('does not even convert values of the sources a bindingSource list leaves out', async () => {
    const schema = Type.Object({ page: Type.Optional(Type.Integer({ header: 'X-Page', bindingSource: 'header' })) })
    const res = await all(schema, {
      url: '/?page=abc',
      headers: { cookie: 'page=xyz', 'content-type': 'application/json' },
      payload: '{"page":"not a number"}',
    })
    expect(res).toEqual({ status: 200, body: {} })
  })

  it('does not read the field from sources missing from its bindingSource list', async () => {
    const schema = Type.Object({ token: Type.Optional(Type.String({ bindingSource: 'query' })) })
    expect((await all(schema, { url: '/', headers: { cookie: 'token=c' } })).body).toEqual({})
  })

  it('skips the body of a bindingSource list when it is empty', async () => {
    const schema = Type.Object({ id: Type.Optional(Type.String({ bindingSource: 'body,query' })) })
    const res = await all(schema, { url: '/?id=q', headers: { 'content-type': 'application/json' }, payload: '' })
    expect(res).toEqual({ status: 200, body: { id: 'q' } })
  })

  it('ignores empty names and repeats in a bindingSource list', async () => {
    const schema = Type.Object({ id: Type.Optional(Type.String({ bindingSource: untyped(' query, ,query,') })) })
    expect((await all(schema, { url: '/?id=q', headers: { cookie: 'id=c' } })).body).toEqual({ id: 'q' })
  })

  it('ignores a bindingSource on a nested field, as Fiber ignores tags inside nested structs', async () => {
    const schema = Type.Object({
      a: Type.Optional(Type.Object({ b: Type.Optional(Type.String({ bindingSource: 'query' })) })),
      id: Type.Optional(Type.String()),
    })
    expect((await all(schema, { url: '/', headers: { cookie: 'id=c' } })).body).toEqual({ id: 'c' })
  })

  it.each([
    [
      'an unknown source name',
      Type.Object({ a: Type.String({ bindingSource: untyped('query,form') }) }),
      'bindingSource "query,form" of field "a" names an unknown source "form"',
    ],
    [
      'typos of source names',
      Type.Object({ a: Type.String({ bindingSource: untyped('headers,qury') }) }),
      'bindingSource "headers,qury" of field "a" names unknown sources "headers", "qury"',
    ],
    [
      'two tagged fields',
      Type.Object({ a: Type.String({ bindingSource: 'query' }), b: Type.String({ bindingSource: 'header' }) }),
      'only one field may have bindingSource (found on "a", "b")',
    ],
  ])('refuses %s as a setup error (500), never a 400 for the client', async (_name, schema, message) => {
    const res = await all(schema, { url: '/' })
    expect(res.status).toBe(500)
    expect(res.body).toMatchObject({ code: 'WEFT_BAD_BINDING_SOURCE', message: expect.stringContaining(message) })
  })

  it('refuses a bad bindingSource whichever binding call compiles the schema first', async () => {
    const app = await makeApp((req) =>
      bind(req).query(Type.Object({ a: Type.String({ bindingSource: untyped('qury') }) })),
    )
    const res = await app.inject({ url: '/?a=1' })
    expect([res.statusCode, res.json().code]).toEqual([500, 'WEFT_BAD_BINDING_SOURCE'])
  })
})

describe('bindingSource in route schemas', () => {
  it.each(['querystring', 'body', 'params', 'headers'] as const)(
    'fails the boot when schema.%s has an unknown source name, naming the route, field and value',
    async (part) => {
      const app = await makeApp(() => 'unused')
      const Token = Type.Object({ token: Type.String({ bindingSource: untyped('headers,qury') }) })
      const boot = async () => {
        app.post('/tokens', { schema: { [part]: Token } }, async () => 'ok')
        await app.ready()
      }
      await expect(boot()).rejects.toThrow(
        `POST /tokens schema.${part}: bindingSource "headers,qury" of field "token" names unknown sources "headers", "qury"`,
      )
    },
  )
})
