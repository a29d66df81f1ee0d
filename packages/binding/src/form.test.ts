import fastifyMultipart from '@fastify/multipart'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp, multipart } from '../test/helpers.js'
import { bind, FileField, type FileHeader, multipartForm, weftBinding } from './index.js'

const Upload = Type.Object({
  title: Type.String(),
  tags: Type.Array(Type.String(), { default: [] }),
  avatar: Type.Optional(FileField({ form: 'picture' })),
  docs: Type.Optional(Type.Array(FileField())),
})

function describeFiles(out: { avatar?: FileHeader; docs?: FileHeader[] } & Record<string, unknown>) {
  const file = (f: FileHeader) => ({ name: f.filename, type: f.mimetype, size: f.size, text: f.buffer.toString() })
  return { ...out, avatar: out.avatar && file(out.avatar), docs: out.docs?.map(file) }
}

describe('bind().form() with multipart bodies', () => {
  const body = multipart([
    { name: 'TITLE', value: 'Trip' },
    { name: 'tags', value: 'a' },
    { name: 'tags[]', value: 'b' },
    { name: 'picture', filename: 'me.png', type: 'image/png', content: 'PNG' },
    { name: 'docs', filename: 'a.txt', type: 'text/plain', content: 'first' },
    { name: 'docs', filename: 'b.txt', type: 'text/plain', content: 'second' },
  ])

  it('fills text fields, the first file of a FileField and all files of an array of them', async () => {
    const app = await makeApp(async (request) => describeFiles(await bind(request).form(Upload)))
    const res = await app.inject({ method: 'POST', url: '/', ...body })
    expect(res.json()).toEqual({
      title: 'Trip',
      tags: ['a', 'b'],
      avatar: { name: 'me.png', type: 'image/png', size: 3, text: 'PNG' },
      docs: [
        { name: 'a.txt', type: 'text/plain', size: 5, text: 'first' },
        { name: 'b.txt', type: 'text/plain', size: 6, text: 'second' },
      ],
    })
  })

  it('leaves files out with files: false', async () => {
    const app = await makeApp(async (request) => describeFiles(await bind(request).body(Upload, { files: false })))
    const res = await app.inject({ method: 'POST', url: '/', ...body })
    expect(res.json()).toEqual({ title: 'Trip', tags: ['a', 'b'] })
  })

  it('parses the form once per request', async () => {
    const app = await makeApp(async (request) => {
      const first = await multipartForm(request)
      const out = await bind(request).form(Upload)
      return { same: first === (await multipartForm(request)), title: out.title, files: Object.keys(first.file) }
    })
    const res = await app.inject({ method: 'POST', url: '/', ...body })
    expect(res.json()).toEqual({ same: true, title: 'Trip', files: ['picture', 'docs'] })
  })

  it('answers 413 when a file is over the size limit', async () => {
    const app = await makeApp((request) => bind(request).form(Upload), { multipartLimits: { fileSize: 4 } })
    const res = await app.inject({ method: 'POST', url: '/', ...body })
    expect(res.statusCode).toBe(413)
  })

  it('answers 413 when there are more files than allowed', async () => {
    const app = await makeApp((request) => bind(request).form(Upload), { multipartLimits: { files: 1 } })
    const res = await app.inject({ method: 'POST', url: '/', ...body })
    expect(res.statusCode).toBe(413)
  })

  it('reports a text value for a file field as a BindError', async () => {
    const app = await makeApp((request) => bind(request).form(Upload))
    const res = await app.inject({
      method: 'POST',
      url: '/',
      ...multipart([
        { name: 'title', value: 'x' },
        { name: 'docs', value: 'x' },
      ]),
    })
    expect(res.json()).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining('"docs"') })
  })
})

describe('bind().form() with urlencoded bodies', () => {
  const Colors = Type.Object({ colors: Type.Array(Type.String()) })

  it.each([
    ['repeated key', 'colors=a&colors=b', false, ['a', 'b']],
    ['bracket notation', 'colors[]=a&colors[]=b', false, ['a', 'b']],
    ['indexed brackets', 'colors[1]=b&colors[0]=a', false, ['a', 'b']],
    ['comma-separated without splitting', 'colors=a,b', false, ['a,b']],
    ['comma-separated with splitting', 'colors=a,b&colors=c', true, ['a', 'b', 'c']],
  ])('reads the %s array format', async (_name, payload, enableSplittingOnParsers, colors) => {
    const app = await makeApp((request) => bind(request).form(Colors), { enableSplittingOnParsers })
    const headers = { 'content-type': 'application/x-www-form-urlencoded' }
    expect((await app.inject({ method: 'POST', url: '/', headers, payload })).json()).toEqual({ colors })
  })

  it('reads nested and indexed keys like the query', async () => {
    const schema = Type.Object({ items: Type.Array(Type.Object({ qty: Type.Integer() })) })
    const app = await makeApp((request) => bind(request).form(schema))
    const res = await app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'items[0][qty]=2&items[1][QTY]=3',
    })
    expect(res.json()).toEqual({ items: [{ qty: 2 }, { qty: 3 }] })
  })
})

describe('multipart limits and malformed bodies', () => {
  const Title = Type.Object({ title: Type.String() })
  const twoFiles = multipart([
    { name: 'title', value: 'Trip' },
    { name: 'a', filename: 'a.txt', type: 'text/plain', content: 'first' },
    { name: 'b', filename: 'b.txt', type: 'text/plain', content: 'second' },
  ])

  it.each([
    ['fileSize', { fileSize: 5 }, 'FST_REQ_FILE_TOO_LARGE'],
    ['files', { files: 1 }, 'FST_FILES_LIMIT'],
    ['fields', { fields: 0 }, 'FST_FIELDS_LIMIT'],
    ['parts', { parts: 2 }, 'FST_PARTS_LIMIT'],
    ['fieldSize', { fieldSize: 2 }, 'WEFT_FIELD_TOO_LARGE'],
  ])('answers 413 with a stable code over the %s limit', async (_name, multipartLimits, code) => {
    const app = await makeApp((request) => multipartForm(request), { multipartLimits })
    const res = await app.inject({ method: 'POST', url: '/', ...twoFiles })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ statusCode: 413, code })
  })

  it('takes files up to the route body limit by default, the whole body counted', async () => {
    const app = Fastify({ bodyLimit: 400 })
    await app.register(weftBinding)
    app.post('/', async (request) => Object.keys((await multipartForm(request)).file))
    const small = multipart([{ name: 'a', filename: 'a.txt', type: 'text/plain', content: 'x'.repeat(200) }])
    const large = multipart([{ name: 'a', filename: 'a.txt', type: 'text/plain', content: 'x'.repeat(401) }])
    expect((await app.inject({ method: 'POST', url: '/', ...small })).json()).toEqual(['a'])
    expect((await app.inject({ method: 'POST', url: '/', ...large })).json()).toMatchObject({ statusCode: 413 })
  })

  it('answers 400 for a body cut short or without a boundary', async () => {
    const app = await makeApp((request) => bind(request).form(Title))
    const cut = twoFiles.payload.subarray(0, twoFiles.payload.length - 40)
    const res = await app.inject({ method: 'POST', url: '/', headers: twoFiles.headers, payload: cut })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_MULTIPART_MALFORMED' })
    const noBoundary = await app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'multipart/form-data' },
      payload: twoFiles.payload,
    })
    expect(noBoundary.json()).toMatchObject({ statusCode: 400, code: 'WEFT_MULTIPART_MALFORMED' })
  })

  it('reads an empty multipart body as an empty form and leaves request.body undefined', async () => {
    const app = await makeApp(async (request) => ({ form: await multipartForm(request), body: typeof request.body }))
    const res = await app.inject({ method: 'POST', url: '/', headers: twoFiles.headers, payload: '' })
    expect(res.json()).toEqual({ form: { value: {}, file: {} }, body: 'undefined' })
  })

  it('treats __proto__ and constructor as ordinary field names', async () => {
    const app = await makeApp(async (request) => {
      const form = await multipartForm(request)
      return { values: Object.entries(form.value), files: Object.keys(form.file) }
    })
    const body = multipart([
      { name: '__proto__', value: 'a' },
      { name: 'constructor', value: 'b' },
      { name: '__proto__', filename: 'p.txt', type: 'text/plain', content: 'c' },
    ])
    const res = await app.inject({ method: 'POST', url: '/', ...body })
    expect(res.json()).toEqual({
      values: [
        ['__proto__', ['a']],
        ['constructor', ['b']],
      ],
      files: ['__proto__'],
    })
  })

  it('reads the form through @fastify/multipart when the app registered it first', async () => {
    const app = Fastify()
    await app.register(fastifyMultipart)
    await app.register(weftBinding)
    app.post('/', async (request) => describeFiles(await bind(request).form(Upload)))
    const res = await app.inject({
      method: 'POST',
      url: '/',
      ...multipart([
        { name: 'title', value: 'Trip' },
        { name: 'picture', filename: 'me.png', type: 'image/png', content: 'PNG' },
      ]),
    })
    expect(res.json()).toEqual({
      title: 'Trip',
      tags: [],
      avatar: { name: 'me.png', type: 'image/png', size: 3, text: 'PNG' },
    })
  })
})
