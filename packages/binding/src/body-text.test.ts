import fastifyMultipart from '@fastify/multipart'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { afterEach, describe, expect, it } from 'vitest'
import { multipart } from '../test/helpers.js'
import { bodyTextIssues, compileBodyText } from './body-text.js'
import { type BodyTextRules, bind, weftBinding } from './index.js'

const Item = Type.Object({
  title: Type.String(),
  description: Type.Optional(Type.String()),
  amount: Type.Optional(Type.Integer()),
})
const TaggedItem = Type.Object({ title: Type.String({ json: 'title' }), description: Type.Optional(Type.String()) })
const Account = Type.Object({ username: Type.String(), email: Type.String() })

let app: FastifyInstance
afterEach(() => app?.close())

async function start(bodyText: BodyTextRules | undefined) {
  app = Fastify()
  await app.register(weftBinding, bodyText === undefined ? {} : { bodyText })
  app.post('/items', { schema: { body: Item } }, async (request) => request.body)
  app.post('/tagged', { schema: { body: TaggedItem } }, async (request) => request.body)
  app.post('/bound', async (request) => bind(request).json(Item))
  app.post('/accounts', { schema: { body: Account } }, async (request) => request.body)
  app.post('/forms', async (request) => bind(request).form(Item))
  app.post('/echo', async (request) => request.body)
  return app
}

const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object })
const postAs = (url: string, contentType: string, payload: string) =>
  app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload })

describe('bodyText', () => {
  const rules: BodyTextRules = { multiLineFields: ['description'], identifierFields: ['username', 'email'] }

  it('refuses a control character in a one-line string with a 400 naming the field', async () => {
    await start(rules)
    for (const url of ['/items', '/tagged', '/bound']) {
      const res = await post(url, { title: 'a\u0000b' })
      expect(res.statusCode, url).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'WEFT_VALIDATION_FAILED',
        message: 'body/title must not contain control characters',
      })
    }
  })

  it('names a nested field by its JSON Pointer, with / and ~ in keys escaped', async () => {
    await start(rules)
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { 'a/b': { 'c~d': ['ok', 'x\u0007'] } } })
    expect(res.json().message).toBe('body/a~1b/c~0d/1 must not contain control characters')
  })

  it('lets multi-line fields hold tabs and line breaks, but no other control', async () => {
    await start(rules)
    expect((await post('/items', { title: 'x', description: 'a\tb\r\nc' })).json()).toEqual({
      title: 'x',
      description: 'a\tb\r\nc',
    })
    expect((await post('/items', { title: 'x', description: 'a\u001bb' })).statusCode).toBe(400)
    expect((await post('/items', { title: 'a\nb' })).statusCode).toBe(400)
    expect((await post('/items', { title: 'a\u007fb' })).statusCode).toBe(400)
  })

  it('puts identifier fields in NFC and refuses invisible characters in them only', async () => {
    await start(rules)
    const decomposed = 'Jose\u0301'
    const res = await post('/accounts', { username: decomposed, email: 'e\u0301@example.com' })
    expect(res.json()).toEqual({ username: 'Jos\u00e9', email: '\u00e9@example.com' })
    const hidden = await post('/accounts', { username: 'ad\u200bmin', email: 'a@example.com' })
    expect(hidden.statusCode).toBe(400)
    expect(hidden.json().message).toBe('body/username must not contain invisible characters')
    // the same character in another field is text, not an identity
    expect((await post('/items', { title: 'zero\u200bwidth' })).statusCode).toBe(200)
  })

  it('refuses more than 30 combining marks in a row in identifier fields, in time linear in the length', async () => {
    await start(rules)
    // 30 marks in a row are stream-safe text, and still put in NFC
    const thirty = `e${'\u0301\u0316'.repeat(15)}`
    const ok = await post('/accounts', { username: thirty, email: 'a@example.com' })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().username).toBe(thirty.normalize('NFC'))
    // marks whose classes alternate: NFC orders such a run by insertion, quadratic in its length
    const long = `e${'\u0301\u0316'.repeat(25_000)}`
    const start2 = process.cpuUsage()
    const res = await post('/accounts', { username: long, email: 'a@example.com' })
    const { user, system } = process.cpuUsage(start2)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'WEFT_VALIDATION_FAILED',
      message: 'body/username must not contain more than 30 combining marks in a row',
    })
    // normalizing it took over a second; refusing it takes a few milliseconds
    expect((user + system) / 1000).toBeLessThan(250)
    // a form field is an identifier too
    const form = await postAs(
      '/forms',
      'application/x-www-form-urlencoded',
      `title=x&username=${encodeURIComponent(long)}`,
    )
    expect(form.json()).toMatchObject({
      message: 'body/username must not contain more than 30 combining marks in a row',
    })
    // the same run in a field that is not an identifier is text, and not normalized
    expect((await post('/items', { title: long })).statusCode).toBe(200)
  })

  it('names nested fields with their path and stops at maxProblems', async () => {
    await start({ maxProblems: 2 })
    const res = await post('/bound', { title: 'ok', tags: [{ name: 'a\u0001' }, 'b\u0002', 'c\u0003'] })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(
      'body/tags/0/name must not contain control characters, body/tags/1 must not contain control characters',
    )
  })

  it('leaves the wrong type of a typed field to validation', async () => {
    await start(rules)
    const res = await post('/items', { title: 'x', amount: 'a\u0000' })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).not.toContain('control characters')
  })

  it('checks form bodies too', async () => {
    await start(rules)
    const res = await postAs('/forms', 'application/x-www-form-urlencoded', 'title=a%00b')
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('body/title must not contain control characters')
  })

  it('walks a body nested 100,000 deep (from a parser of the app) without overflowing the stack', async () => {
    app = Fastify()
    app.addContentTypeParser('application/x-deep', { parseAs: 'string' }, (_request, text, done) =>
      done(null, JSON.parse(text as string)),
    )
    await app.register(weftBinding, { bodyText: rules })
    app.post('/deep', async () => 'accepted')
    const deep = `${'['.repeat(100_000)}"a\\u0000"${']'.repeat(100_000)}`
    const send = (payload: string) => postAs('/deep', 'application/x-deep', payload)
    const res = await send(deep)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/^body\/0\/0\/.* must not contain control characters$/)
    expect((await send(deep.replace('\\u0000', ''))).statusCode).toBe(200)
  })

  it('leaves a body that is one text (text/plain) as it is', async () => {
    await start(rules)
    const res = await postAs('/echo', 'text/plain', 'line one\nline two')
    expect([res.statusCode, res.body]).toEqual([200, 'line one\nline two'])
  })

  it("matches an array's items by the array's field name", async () => {
    await start(rules)
    expect((await post('/echo', { description: ['a\nb'] })).statusCode).toBe(200)
    const res = await post('/echo', { email: ['ok@example.com', 'a\u200b@example.com'] })
    expect(res.json().message).toBe('body/email/1 must not contain invisible characters')
  })

  it.each([
    ['attachFieldsToBody: true, multipart first', true, 'multipart first'],
    ["attachFieldsToBody: 'keyValues', multipart first", 'keyValues', 'multipart first'],
    ['attachFieldsToBody: true, multipart after weftBinding', true, 'multipart after'],
    ["attachFieldsToBody: 'keyValues', multipart after weftBinding", 'keyValues', 'multipart after'],
  ] as const)("checks @fastify/multipart's fields by their names (%s), not its files", async (_name, attach, order) => {
    app = Fastify()
    if (order === 'multipart first') await app.register(fastifyMultipart, { attachFieldsToBody: attach })
    await app.register(weftBinding, { bodyText: rules })
    if (order === 'multipart after') await app.register(fastifyMultipart, { attachFieldsToBody: attach })
    app.post('/upload', async (request) =>
      bind(request).form(Type.Object({ username: Type.String(), description: Type.String() })),
    )
    const upload = (username: string) =>
      app.inject({
        method: 'POST',
        url: '/upload',
        ...multipart([
          { name: 'username', value: username },
          { name: 'description', value: 'two\r\nlines' },
          { name: 'doc', filename: 'd.bin', type: 'application/octet-stream', content: 'bytes\u0000\u0001' },
        ]),
      })
    const ok = await upload('Jose\u0301')
    expect([ok.statusCode, ok.json()]).toEqual([200, { username: 'Jos\u00e9', description: 'two\r\nlines' }])
    const refused = await upload('a\u0007b')
    expect([refused.statusCode, refused.json().message]).toEqual([
      400,
      'body/username must not contain control characters',
    ])
  })

  it("runs before the route's own preValidation hooks, after the instance's", async () => {
    app = Fastify()
    const seen: string[] = []
    await app.register(weftBinding, { bodyText: rules })
    app.addHook('preValidation', async (request) => {
      seen.push(`instance ${(request.body as { title: string }).title.length}`)
    })
    app.post(
      '/hooks',
      { preValidation: async () => void seen.push('route'), schema: { body: Item } },
      async (request) => request.body,
    )
    expect((await post('/hooks', { title: 'a\u0000b' })).statusCode).toBe(400)
    expect(seen).toEqual(['instance 3'])
    expect((await post('/hooks', { title: 'ok' })).statusCode).toBe(200)
    expect(seen).toEqual(['instance 3', 'instance 2', 'route'])
  })

  it('checks routes declared before the plugin loaded (a registration not awaited)', async () => {
    app = Fastify()
    app.register(weftBinding, { bodyText: { ...rules, identifierFields: ['username'] } })
    app.post('/early', async (request) => request.body)
    await app.ready()
    const res = await post('/early', { username: 'Jose\u0301', title: 'a\u0000' })
    expect([res.statusCode, res.json().message]).toEqual([400, 'body/title must not contain control characters'])
    const ok = await post('/early', { username: 'Jose\u0301' })
    expect([ok.statusCode, ok.json()]).toEqual([200, { username: 'Jos\u00e9' }])
  })

  it('looks at an object once, so objects that refer to each other end the walk', () => {
    const body: Record<string, unknown> = { title: 'ok' }
    body.self = body
    body.list = [body, { title: 'a\u0000' }]
    const issues = bodyTextIssues(body, compileBodyText(rules))
    expect(issues.map((issue) => issue.instancePath)).toEqual(['/list/1/title'])
  })

  it('is off by default', async () => {
    await start(undefined)
    expect((await post('/items', { title: 'a\u0000b' })).json()).toEqual({ title: 'a\u0000b' })
  })

  it('fails at boot on rules that are not field names or a count', async () => {
    for (const bodyText of [
      { multiLineFields: 'description' },
      { identifierFields: [''] },
      { maxProblems: 0 },
    ] as unknown as BodyTextRules[]) {
      const broken = Fastify()
      await expect(broken.register(weftBinding, { bodyText }).ready()).rejects.toThrow(/bodyText/)
      await broken.close()
    }
  })
})
