import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BindError } from '@weft/binding'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { multipart } from '../test/multipart.js'
import { tempDir } from '../test/temp-dir.js'
import { handle, type Storage } from './index.js'

describe('context parsers delegate to @weft/binding', () => {
  it('paramsParser reads the params tag, bind().uri the uri tag', async () => {
    const app = await makeApp()
    const Schema = Type.Object({ id: Type.Integer({ params: 'user_id', uri: 'user_id' }) })
    app.get(
      '/u/:user_id',
      handle(async (c) => c.json([await c.paramsParser(Schema), await c.bind().uri(Schema)])),
    )
    expect((await app.inject('/u/7')).json()).toEqual([{ id: 7 }, { id: 7 }])
  })

  it('reqHeaderParser reads the reqHeader tag', async () => {
    const app = await makeApp()
    const Schema = Type.Object({ token: Type.String({ reqHeader: 'X-Token' }) })
    app.get(
      '/',
      handle(async (c) => c.json(await c.reqHeaderParser(Schema))),
    )
    expect((await app.inject({ url: '/', headers: { 'x-token': 'abc' } })).json()).toEqual({ token: 'abc' })
  })

  it('queryParser honours enableSplittingOnParsers', async () => {
    const app = await makeApp({ enableSplittingOnParsers: true })
    const Schema = Type.Object({ colors: Type.Array(Type.String()) })
    app.get(
      '/',
      handle(async (c) => c.json(await c.queryParser(Schema))),
    )
    expect((await app.inject('/?colors=red,blue')).json()).toEqual({ colors: ['red', 'blue'] })
  })

  it('cookieParser reads cookies', async () => {
    const app = await makeApp()
    const Schema = Type.Object({ sid: Type.String({ cookie: 'session_id' }) })
    app.get(
      '/',
      handle(async (c) => c.json(await c.cookieParser(Schema))),
    )
    expect((await app.inject({ url: '/', headers: { cookie: 'session_id=s1' } })).json()).toEqual({ sid: 's1' })
  })

  it('bodyParser binds JSON and forms, and c.body() still has the raw bytes', async () => {
    const app = await makeApp()
    const Schema = Type.Object({ name: Type.String(), age: Type.Integer() })
    app.post(
      '/',
      handle(async (c) => c.json({ bound: await c.bodyParser(Schema), raw: c.body().toString() })),
    )
    const json = await app.inject({ method: 'POST', url: '/', payload: { name: 'ada', age: 36 } })
    expect(json.json()).toEqual({ bound: { name: 'ada', age: 36 }, raw: '{"name":"ada","age":36}' })
    const form = await app.inject({
      method: 'POST',
      url: '/',
      payload: 'name=bob&age=7',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(form.json()).toEqual({ bound: { name: 'bob', age: 7 }, raw: 'name=bob&age=7' })
  })

  it('bodyParser leaves multipart files out', async () => {
    const app = await makeApp()
    const Schema = Type.Object({ title: Type.String(), doc: Type.Optional(Type.Unknown()) })
    app.post(
      '/',
      handle(async (c) => c.json(await c.bodyParser(Schema))),
    )
    const { payload, headers } = multipart({ title: 'T' }, [
      { field: 'doc', filename: 'a.txt', type: 'text/plain', content: 'x' },
    ])
    expect((await app.inject({ method: 'POST', url: '/', payload, headers })).json()).toEqual({ title: 'T' })
  })

  it('bind errors reach the client as 400s', async () => {
    const app = await makeApp()
    const Schema = Type.Object({ id: Type.Integer({ params: 'id' }) })
    app.get(
      '/u/:id',
      handle(async (c) => {
        try {
          return await c.paramsParser(Schema)
        } catch (error) {
          c.status(error instanceof BindError ? 404 : 400).json({ source: (error as BindError).source })
        }
      }),
    )
    const res = await app.inject('/u/abc')
    expect(res.statusCode).toBe(404)
  })
})

describe('multipart forms', () => {
  const upload = multipart({ title: 'Report', tag: 'a' }, [
    { field: 'doc', filename: 'r.txt', type: 'text/plain', content: 'file body' },
    { field: 'doc', filename: 's.txt', type: 'text/plain', content: 'second' },
  ])

  it('multipartForm lists values and files', async () => {
    const app = await makeApp()
    app.post(
      '/',
      handle(async (c) => {
        const form = await c.multipartForm()
        c.json({ value: form.value, files: form.file.doc?.map((f) => [f.filename, f.buffer.toString()]) })
      }),
    )
    const res = await app.inject({ method: 'POST', url: '/', ...upload })
    expect(res.json()).toEqual({
      value: { title: ['Report'], tag: ['a'] },
      files: [
        ['r.txt', 'file body'],
        ['s.txt', 'second'],
      ],
    })
  })

  it('formFile returns the first file, formValue the first value', async () => {
    const app = await makeApp()
    app.post(
      '/',
      handle(async (c) => {
        const file = await c.formFile('doc')
        c.json({
          name: file.filename,
          size: file.size,
          title: await c.formValue('title'),
          none: await c.formValue('x', 'def'),
        })
      }),
    )
    expect((await app.inject({ method: 'POST', url: '/', ...upload })).json()).toEqual({
      name: 'r.txt',
      size: 9,
      title: 'Report',
      none: 'def',
    })
  })

  it('formFile answers 400 WEFT_MISSING_FILE when nothing was uploaded', async () => {
    const app = await makeApp()
    app.post(
      '/',
      handle(async (c) => c.formFile('avatar')),
    )
    const res = await app.inject({ method: 'POST', url: '/', ...upload })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_MISSING_FILE')
  })

  it('formValue reads the query string and urlencoded bodies', async () => {
    const app = await makeApp()
    app.post(
      '/',
      handle(async (c) => c.json([await c.formValue('a'), await c.formValue('b')])),
    )
    const res = await app.inject({
      method: 'POST',
      url: '/?a=fromQuery',
      payload: 'a=fromBody&b=2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res.json()).toEqual(['fromQuery', '2'])
  })

  it('saveFile writes the upload to disk', async () => {
    const dir = tempDir('weft-upload-')
    const app = await makeApp()
    app.post(
      '/',
      handle(async (c) => {
        await c.saveFile(await c.formFile('doc'), join(dir, 'saved.txt'))
        c.sendStatus(201)
      }),
    )
    expect((await app.inject({ method: 'POST', url: '/', ...upload })).statusCode).toBe(201)
    expect(readFileSync(join(dir, 'saved.txt'), 'utf8')).toBe('file body')
  })

  it('saveFileToStorage uses the given or the configured storage', async () => {
    const stored = new Map<string, string>()
    const storage: Storage = { set: (key, value) => void stored.set(key, value.toString()) }
    const other = new Map<string, string>()
    const app = await makeApp({ storage })
    app.post(
      '/',
      handle(async (c) => {
        const file = await c.formFile('doc')
        await c.saveFileToStorage(file, 'uploads/r.txt')
        await c.saveFileToStorage(file, 'copy.txt', { set: (key, value) => void other.set(key, value.toString()) })
        c.sendStatus(201)
      }),
    )
    expect((await app.inject({ method: 'POST', url: '/', ...upload })).statusCode).toBe(201)
    expect([...stored]).toEqual([['uploads/r.txt', 'file body']])
    expect([...other]).toEqual([['copy.txt', 'file body']])
  })

  it('saveFileToStorage fails with WEFT_NO_STORAGE without any storage', async () => {
    const app = await makeApp()
    app.post(
      '/',
      handle(async (c) => c.saveFileToStorage(await c.formFile('doc'), 'x')),
    )
    expect((await app.inject({ method: 'POST', url: '/', ...upload })).json().code).toBe('WEFT_NO_STORAGE')
  })
})
