import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { type Ctx, handle } from './index.js'

async function respond(write: (c: Ctx) => unknown) {
  const app = await makeApp()
  app.get(
    '/',
    handle(async (c) => {
      await write(c)
    }),
  )
  return app.inject('/')
}

describe('set, append, vary, getRespHeader(s)', () => {
  it('sets a header and reads it back case-insensitively', async () => {
    const res = await respond((c) => {
      c.set('X-Id', '7')
      c.json([c.getRespHeader('x-id'), c.getRespHeader('X-ID'), c.getRespHeader('nope', 'd')])
    })
    expect(res.headers['x-id']).toBe('7')
    expect(res.json()).toEqual(['7', '7', 'd'])
  })

  it('appends without duplicating values', async () => {
    const res = await respond((c) => c.append('X-List', 'a', 'b').append('X-List', 'b', 'c').sendString(''))
    expect(res.headers['x-list']).toBe('a, b, c')
  })

  it('adds Vary fields once, case-insensitively', async () => {
    const res = await respond((c) => c.vary('Accept', 'Origin').vary('accept', 'Accept-Encoding').sendString(''))
    expect(res.headers.vary).toBe('Accept, Origin, Accept-Encoding')
  })

  it('collapses Vary to *', async () => {
    const res = await respond((c) => c.vary('Accept').vary('*').vary('Origin').sendString(''))
    expect(res.headers.vary).toBe('*')
  })

  it('lists every response header value', async () => {
    const res = await respond((c) => {
      c.set('X-A', '1')
      c.cookie({ name: 'a', value: '1' }).cookie({ name: 'b', value: '2' })
      c.json(c.getRespHeaders())
    })
    expect(res.json()).toMatchObject({ 'x-a': ['1'], 'set-cookie': ['a=1', 'b=2'] })
  })
})

describe('links', () => {
  it('joins <url>; rel="rel" entries with commas', async () => {
    const res = await respond((c) =>
      c.links('http://api.example.com/users?page=2', 'next', '/users?page=5', 'last').sendString(''),
    )
    expect(res.headers.link).toBe('<http://api.example.com/users?page=2>; rel="next",</users?page=5>; rel="last"')
  })

  it('escapes the rel as a quoted string and appends to an existing Link', async () => {
    const res = await respond((c) => c.links('/a', 'x"y').links('/b', 'z').sendString(''))
    expect(res.headers.link).toBe('</a>; rel="x\\"y",</b>; rel="z"')
  })
})

describe('header splitting', () => {
  it.each([
    ['set value', (c: Ctx) => c.set('X-A', 'ok\r\nSet-Cookie: evil=1')],
    ['set name', (c: Ctx) => c.set('X-A\r\nEvil', 'v')],
    ['links url', (c: Ctx) => c.links('/a>\r\nSet-Cookie: evil=1', 'next')],
    ['links rel', (c: Ctx) => c.links('/a', 'next\nX: y')],
    ['location', (c: Ctx) => c.location('/a\r\nSet-Cookie: evil=1')],
    ['redirect', (c: Ctx) => c.redirect('/a\nSet-Cookie: evil=1')],
    ['append', (c: Ctx) => c.append('X-A', 'a\rb')],
    ['vary', (c: Ctx) => c.vary('Accept\r\nX: y')],
    ['vary field name', (c: Ctx) => c.vary('not a token')],
  ])('refuses CR/LF in %s with 400 WEFT_INVALID_HEADER', async (_name, write) => {
    const res = await respond(write)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_INVALID_HEADER')
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('accepts a huge but clean header value', async () => {
    const res = await respond((c) => c.set('X-Big', 'a'.repeat(8000)).sendString(''))
    expect(res.headers['x-big']).toHaveLength(8000)
  })
})

describe('location', () => {
  it('percent-encodes spaces and non-ASCII but keeps escapes', async () => {
    const res = await respond((c) => c.location('/a b/é?q=%20x').sendString(''))
    expect(res.headers.location).toBe('/a%20b/%C3%A9?q=%20x')
  })
})

describe('type and attachment', () => {
  it.each([
    ['html', undefined, 'text/html; charset=utf-8'],
    ['.json', undefined, 'application/json; charset=utf-8'],
    ['js', undefined, 'text/javascript; charset=utf-8'],
    ['xml', undefined, 'application/xml; charset=utf-8'],
    ['png', undefined, 'image/png'],
    ['txt', 'iso-8859-1', 'text/plain; charset=iso-8859-1'],
    ['nosuchext', undefined, 'application/octet-stream'],
  ])('type(%s, %s) → %s', async (ext, charset, expected) => {
    const res = await respond((c) => c.type(ext, charset).sendString('x'))
    expect(res.headers['content-type']).toBe(expected)
  })

  it('sets a bare attachment', async () => {
    const res = await respond((c) => c.attachment().sendString('x'))
    expect(res.headers['content-disposition']).toBe('attachment')
  })

  it('uses the base name and its type', async () => {
    const res = await respond((c) => c.attachment('/secret/dir/report.pdf').sendString('x'))
    expect(res.headers['content-disposition']).toBe('attachment; filename="report.pdf"')
    expect(res.headers['content-type']).toBe('application/pdf')
  })

  it('strips control characters and adds filename* for non-ASCII names', async () => {
    const res = await respond((c) => c.attachment('C:\\up\\ré\x07sumé.txt').sendString('x'))
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="r?sum?.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
    )
    const res2 = await respond((c) => c.attachment('отчёт.txt').sendString('x'))
    expect(res2.headers['content-disposition']).toBe(
      'attachment; filename="?????.txt"; filename*=UTF-8\'\'%D0%BE%D1%82%D1%87%D1%91%D1%82.txt',
    )
  })
})
