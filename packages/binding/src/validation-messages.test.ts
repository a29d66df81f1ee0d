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

describe('validation messages in plain words', () => {
  it.each([
    ['an empty string', Type.Object({ t: Type.String({ minLength: 1 }) }), { t: '' }, 'body/t must not be empty'],
    [
      'a short string',
      Type.Object({ t: Type.String({ minLength: 3 }) }),
      { t: 'ab' },
      'body/t must be at least 3 characters long',
    ],
    [
      'a long string',
      Type.Object({ t: Type.String({ maxLength: 1 }) }),
      { t: 'ab' },
      'body/t must be at most 1 character long',
    ],
    ['a small number', Type.Object({ n: Type.Integer({ minimum: 1 }) }), { n: 0 }, 'body/n must be at least 1'],
    ['a large number', Type.Object({ n: Type.Integer({ maximum: 9 }) }), { n: 10 }, 'body/n must be at most 9'],
    [
      'an exclusive minimum',
      Type.Object({ n: Type.Number({ exclusiveMinimum: 0 }) }),
      { n: 0 },
      'body/n must be more than 0',
    ],
    [
      'an exclusive maximum',
      Type.Object({ n: Type.Number({ exclusiveMaximum: 1 }) }),
      { n: 1 },
      'body/n must be less than 1',
    ],
    [
      'an empty list',
      Type.Object({ l: Type.Array(Type.Integer(), { minItems: 1 }) }),
      { l: [] },
      'body/l must not be empty',
    ],
    [
      'a short list',
      Type.Object({ l: Type.Array(Type.Integer(), { minItems: 2 }) }),
      { l: [1] },
      'body/l must have at least 2 items',
    ],
    [
      'a long list',
      Type.Object({ l: Type.Array(Type.Integer(), { maxItems: 1 }) }),
      { l: [1, 2] },
      'body/l must have at most 1 item',
    ],
    [
      'a repeated item',
      Type.Object({ l: Type.Array(Type.Integer(), { uniqueItems: true }) }),
      { l: [1, 1] },
      'body/l must not list the same item twice',
    ],
    ['a missing field', Type.Object({ id: Type.Integer() }), {}, 'body/id is required'],
    [
      'two missing fields',
      Type.Object({ a: Type.Integer(), b: Type.Integer() }),
      {},
      'body/a is required, body/b is required',
    ],
    [
      'a missing nested field',
      Type.Object({ o: Type.Object({ city: Type.String() }) }),
      { o: {} },
      'body/o/city is required',
    ],
  ])('say what is wrong with %s', async (_case, schema, body, message) => {
    const res = await query(schema, body)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'WEFT_VALIDATION_FAILED', message })
    expect(res.body.message).not.toMatch(/fewer than|more than \d+ (characters|items)|>=|<=|required propert/)
  })

  it('keeps keyword and params for programs, with the plain words in each message', async () => {
    let caught: unknown
    const app = await makeApp(async (request) => {
      try {
        return await bind(request).json(Type.Object({ id: Type.Integer(), t: Type.String({ minLength: 1 }) }))
      } catch (err) {
        caught = err
        throw err
      }
    })
    await app.inject({ method: 'POST', url: '/', payload: { t: '' } })
    expect(caught).toMatchObject({
      validationContext: 'body',
      validation: expect.arrayContaining([
        { instancePath: '', keyword: 'required', message: 'id is required', params: { requiredProperties: ['id'] } },
        { instancePath: '/t', keyword: 'minLength', message: 'must not be empty', params: { limit: 1 } },
      ]),
    })
  })
})

describe('validation messages of all()', () => {
  const Item = Type.Object({
    id: Type.Integer({ uri: 'id', query: 'id' }),
    title: Type.String({ minLength: 1 }),
    limit: Type.Optional(Type.Integer({ maximum: 100 })),
  })

  async function all(request: Record<string, unknown>) {
    const app = await makeApp((req) => bind(req).all(Item))
    const res = await app.inject({ method: 'POST', ...request })
    return { status: res.statusCode, body: res.json() }
  }

  it('names a missing field, not a source called "all"', async () => {
    const res = await all({ url: '/?title=x' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'WEFT_VALIDATION_FAILED', message: 'id is required' })
  })

  it('names the source a failing value came from', async () => {
    const res = await all({ url: '/items/1?limit=500', payload: { title: '' } })
    expect(res.body).toMatchObject({
      code: 'WEFT_VALIDATION_FAILED',
      message: 'body/title must not be empty, query/limit must be at most 100',
    })
  })

  it('never starts a message with "all"', async () => {
    const res = await all({ url: '/' })
    expect(res.body.message).not.toMatch(/\ball\b/)
    expect(res.body.message).toBe('id is required, title is required')
  })
})

describe('validation messages name what the client sent', () => {
  const Search = Type.Object({
    pageSize: Type.Integer({ query: 'page_size', maximum: 50 }),
    price: Type.Optional(Type.Object({ min: Type.Number({ query: 'lo', minimum: 0 }) }, { query: 'p' })),
  })
  const Tenant = Type.Object({ tenant: Type.String({ header: 'X-Tenant-Id' }) })
  const Profile = Type.Object({
    displayName: Type.String({ json: 'display_name', form: 'the_name', minLength: 1 }),
    tags: Type.Optional(Type.Array(Type.Object({ label: Type.String({ json: 'text', maxLength: 3 }) }))),
  })

  async function routes() {
    return makeApp(
      async (request) => request.body,
      {},
      (app) => {
        app.get('/bound', (request) => bind(request).query(Search))
        app.get('/issues', (request) =>
          bind(request)
            .query(Search)
            .catch((error) => error.validation),
        )
        app.get('/tenant-issues', (request) =>
          bind(request)
            .header(Tenant)
            .catch((error) => error.validation),
        )
        app.get('/schema', { schema: { querystring: Search } }, (request) => request.query)
        app.get('/tenant', (request) => bind(request).header(Tenant))
        app.get('/tenant-schema', { schema: { headers: Tenant } }, () => 'ok')
        app.post('/profile', (request) => bind(request).body(Profile))
        app.post('/profile-schema', { schema: { body: Profile } }, (request) => request.body)
      },
    )
  }

  it('in the query: wire names, nested ones too, in the message and in validation', async () => {
    const app = await routes()
    for (const url of ['/bound', '/schema']) {
      const res = await app.inject(`${url}?page_size=100&p[lo]=-1`)
      expect(res.statusCode, url).toBe(400)
      expect(res.json(), url).toMatchObject({
        code: 'WEFT_VALIDATION_FAILED',
        message: 'query/page_size must be at most 50, query/p/lo must be at least 0',
      })
    }
    const issues = await app.inject('/issues?page_size=100&p[lo]=-1')
    expect(issues.json()).toMatchObject([{ instancePath: '/page_size' }, { instancePath: '/p/lo' }])
  })

  it('in headers: a missing one under its header name', async () => {
    const app = await routes()
    for (const url of ['/tenant', '/tenant-schema']) {
      const res = await app.inject(url)
      expect(res.json(), url).toMatchObject({ message: 'header/X-Tenant-Id is required' })
    }
    const issues = await app.inject('/tenant-issues')
    expect(issues.json()).toMatchObject([{ params: { requiredProperties: ['X-Tenant-Id'] } }])
  })

  it("in a body: the names of the body's format, through arrays", async () => {
    const app = await routes()
    for (const url of ['/profile', '/profile-schema']) {
      const json = await app.inject({ method: 'POST', url, payload: { display_name: '', tags: [{ text: 'long' }] } })
      expect(json.json().message, url).toBe(
        'body/display_name must not be empty, body/tags/0/text must be at most 3 characters long',
      )
      const form = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'the_name=',
      })
      expect(form.json().message, url).toBe('body/the_name must not be empty')
    }
  })
})
