import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { tempDir } from '../test/temp-dir.js'
import { handle } from './index.js'

const root = tempDir('weft-context-')
const outside = tempDir('weft-outside-')
const text = 'hello file '.repeat(20)
beforeAll(() => {
  writeFileSync(join(root, 'hello.txt'), text)
  writeFileSync(join(root, 'data.json'), '{"a":1}')
  writeFileSync(join(root, 'my report.pdf'), '%PDF')
  writeFileSync(join(root, '.secret'), 'hidden')
  writeFileSync(join(outside, 'secret.txt'), 'outside secret')
  symlinkSync(join(outside, 'secret.txt'), join(root, 'link-out.txt'))
  symlinkSync(outside, join(root, 'dir-out'))
  symlinkSync(join(root, 'hello.txt'), join(root, 'link-in.txt'))
  mkdirSync(join(root, 'sub'))
  symlinkSync('../hello.txt', join(root, 'sub', 'up.txt'))
})

async function files() {
  const app = await makeApp({ root })
  app.get(
    '/f/*',
    handle((c) => c.sendFile(c.params('*'), c.queryBool('gzip'))),
  )
  app.get(
    '/raw',
    handle((c) => c.sendFile(c.query('p'))),
  )
  app.get(
    '/d/*',
    handle((c) => c.download(c.params('*'), c.query('name') || undefined)),
  )
  app.get(
    '/draw',
    handle((c) => c.download(c.query('p'))),
  )
  app.get(
    '/attach-then-send',
    handle((c) => c.attachment('report.pdf').sendFile(c.query('p'))),
  )
  return app
}

describe('sendFile', () => {
  it('sends a file with the type of its extension', async () => {
    const res = await (await files()).inject('/f/hello.txt')
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(text)
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(res.headers.etag).toBeDefined()
    expect(res.headers['content-encoding']).toBeUndefined()
  })

  it('answers Range requests with 206', async () => {
    const res = await (await files()).inject({ url: '/f/hello.txt', headers: { range: 'bytes=0-4' } })
    expect(res.statusCode).toBe(206)
    expect(res.body).toBe('hello')
    expect(res.headers['content-range']).toBe(`bytes 0-4/${text.length}`)
  })

  it('answers a malformed Range with 400 WEFT_RANGE_MALFORMED, as c.range() does', async () => {
    for (const range of ['bytes=abc', 'bytes=5-2', 'bytes=']) {
      const res = await (await files()).inject({ url: '/f/hello.txt', headers: { range } })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'WEFT_RANGE_MALFORMED' })
    }
  })

  it('answers a failed precondition with 412 WEFT_PRECONDITION_FAILED', async () => {
    const res = await (await files()).inject({ url: '/f/hello.txt', headers: { 'if-match': '"nope"' } })
    expect(res.statusCode).toBe(412)
    expect(res.json()).toMatchObject({ code: 'WEFT_PRECONDITION_FAILED' })
  })

  it('answers an unsatisfiable Range with 416', async () => {
    const res = await (await files()).inject({ url: '/f/hello.txt', headers: { range: 'bytes=9999-' } })
    expect(res.statusCode).toBe(416)
    expect(res.json()).toMatchObject({ code: 'WEFT_RANGE_NOT_SATISFIABLE' })
    expect(res.headers['content-range']).toBe(`bytes */${text.length}`)
  })

  it('answers a conditional request with 304', async () => {
    const app = await files()
    const first = await app.inject('/f/hello.txt')
    const res = await app.inject({ url: '/f/hello.txt', headers: { 'if-none-match': String(first.headers.etag) } })
    expect(res.statusCode).toBe(304)
    expect(res.body).toBe('')
  })

  it('gzips only when asked and accepted', async () => {
    const app = await files()
    const res = await app.inject({ url: '/f/hello.txt?gzip=1', headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(res.rawPayload).toString()).toBe(text)
    const plain = await app.inject({ url: '/f/hello.txt?gzip=1', headers: { 'accept-encoding': 'br' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
  })

  it.each([
    ['../etc/passwd', 403],
    ['..%2f..%2fetc%2fpasswd', 403],
    ['a/../../etc/passwd', 403],
    ['%00', 403],
    ['missing.txt', 404],
    ['.secret', 404],
    ['', 403],
  ])('refuses %j with %d', async (path, status) => {
    const res = await (await files()).inject(`/raw?p=${encodeURIComponent(path)}`)
    expect(res.statusCode).toBe(status)
    expect(res.json().code).toBe(status === 403 ? 'WEFT_FORBIDDEN_PATH' : 'WEFT_FILE_NOT_FOUND')
  })

  it('expects URL-encoded paths', async () => {
    const res = await (await files()).inject(`/raw?p=${encodeURIComponent('my%20report.pdf')}`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
  })
})

describe('download', () => {
  it('sends the file as an attachment named after the path', async () => {
    const res = await (await files()).inject('/d/data.json')
    expect(res.headers['content-disposition']).toBe('attachment; filename="data.json"')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json()).toEqual({ a: 1 })
  })

  it('uses the given file name', async () => {
    const res = await (await files()).inject('/d/data.json?name=export.json')
    expect(res.headers['content-disposition']).toBe('attachment; filename="export.json"')
  })
})

describe('sendFile and download stay inside the real root', () => {
  it.each(['link-out.txt', 'dir-out/secret.txt'])('refuses %j, a symbolic link out of root, with 403', async (path) => {
    for (const route of ['/raw', '/draw']) {
      const res = await (await files()).inject(`${route}?p=${encodeURIComponent(path)}`)
      expect(res.statusCode).toBe(403)
      expect(res.json().code).toBe('WEFT_FORBIDDEN_PATH')
      expect(res.body).not.toContain('outside secret')
    }
  })

  it.each(['link-in.txt', 'sub/up.txt'])('follows %j, a symbolic link that stays inside root', async (path) => {
    const res = await (await files()).inject(`/raw?p=${encodeURIComponent(path)}`)
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(text)
  })
})

describe('sendFile and download failures', () => {
  it.each(['/raw', '/draw'])('%s answers 400 WEFT_INVALID_PATH for a malformed percent escape', async (route) => {
    const res = await (await files()).inject(`${route}?p=${encodeURIComponent('bad%zz.txt')}`)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_INVALID_PATH')
  })

  it.each([
    ['/draw', 'missing.txt', 404],
    ['/draw', '../etc/passwd', 403],
    ['/attach-then-send', 'missing.txt', 404],
    ['/attach-then-send', '../etc/passwd', 403],
  ])('%s %j: the %d error response carries no Content-Disposition', async (route, path, status) => {
    const res = await (await files()).inject(`${route}?p=${encodeURIComponent(path)}`)
    expect(res.statusCode).toBe(status)
    expect(res.headers['content-disposition']).toBeUndefined()
  })
})
