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

  it('escapes the rel as a quoted string', async () => {
    const res = await respond((c) => c.links('/a', 'x"y').sendString(''))
    expect(res.headers.link).toBe('</a>; rel="x\\"y"')
  })

  it('replaces the Link header on a second call, as Fiber does', async () => {
    const res = await respond((c) => c.links('/a', 'next', '/z', 'last').links('/b', 'prev').sendString(''))
    expect(res.statusCode).toBe(200)
    expect(res.headers.link).toBe('</b>; rel="prev"')
  })

  it('replaces a Link set with set() and leaves it alone when called without pairs', async () => {
    const res = await respond((c) => {
      c.set('Link', '</old>; rel="x"').links('/new', 'next')
      c.links()
      c.sendString('')
    })
    expect(res.headers.link).toBe('</new>; rel="next"')
  })
})

describe('links edge cases', () => {
  it.each([
    ['a last URL without a rel is added as <url>', ['/a', 'next', '/b'], '</a>; rel="next",</b>'],
    ['a single URL', ['/only'], '</only>'],
    ['a rel with quotes and backslashes is a valid quoted string', ['/a', 'a"b\\c'], '</a>; rel="a\\"b\\\\c"'],
    ['a rel with commas and semicolons stays inside its quotes', ['/a', 'x, y; z'], '</a>; rel="x, y; z"'],
    ['angle brackets in a URL are percent-encoded', ['/a?q=<b>', 'next'], '</a?q=%3Cb%3E>; rel="next"'],
    ['a tab in a rel is kept', ['/a', 'x\ty'], '</a>; rel="x\ty"'],
  ])('%s', async (_rule, args, expected) => {
    const res = await respond((c) => c.links(...args).sendString(''))
    expect(res.headers.link).toBe(expected)
  })
})

describe('Set-Cookie through set and append', () => {
  it('append() adds each cookie as its own header line, never folded, never repeated', async () => {
    const res = await respond((c) => {
      c.cookie({ name: 'a', value: '1' })
      c.append('Set-Cookie', 'b=2; Path=/', 'c=3')
      c.append('set-cookie', 'd=4, e=5')
      c.append('Set-Cookie', 'b=2; Path=/')
      c.sendString('')
    })
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2; Path=/', 'c=3', 'd=4, e=5'])
  })

  it('set() replaces earlier Set-Cookie lines', async () => {
    const res = await respond((c) => {
      c.cookie({ name: 'a', value: '1' }).append('Set-Cookie', 'b=2')
      c.set('Set-Cookie', 'c=3').sendString('')
    })
    expect(res.headers['set-cookie']).toBe('c=3')
  })

  it('append() refuses a cookie with CR/LF', async () => {
    const res = await respond((c) => c.append('Set-Cookie', 'a=1\r\nX-Evil: 1').sendString(''))
    expect(res.statusCode).toBe(400)
    expect(res.headers['x-evil']).toBeUndefined()
  })
})

describe('header splitting', () => {
  it.each([
    ['set value', (c: Ctx) => c.set('X-A', 'ok\r\nSet-Cookie: evil=1')],
    ['set name', (c: Ctx) => c.set('X-A\r\nEvil', 'v')],
    ['links url', (c: Ctx) => c.links('/a>\r\nSet-Cookie: evil=1', 'next')],
    ['links rel', (c: Ctx) => c.links('/a', 'next\nX: y')],
    ['links url with DEL', (c: Ctx) => c.links('/a\u007f', 'next')],
    ['links url beyond Latin-1', (c: Ctx) => c.links('/a\u2028', 'next')],
    ['links last url without rel', (c: Ctx) => c.links('/a', 'next', '/b\r\nX: y')],
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

  it.each([
    ['a value beyond Latin-1', (c: Ctx) => c.set('X-A', '☃'), 'beyond Latin-1'],
    ['a name that is not a token', (c: Ctx) => c.set('X A', 'v'), 'its name is not an HTTP token'],
    ['a Vary entry that is not a field name', (c: Ctx) => c.vary('not a token'), 'is not a header field name'],
  ])('says why it refuses %s', async (_name, write, reason) => {
    const res = await respond(write)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toContain(reason)
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
    ['msgpack', undefined, 'application/vnd.msgpack'],
    ['.cbor', undefined, 'application/cbor'],
  ])('type(%s, %s) → %s', async (ext, charset, expected) => {
    const res = await respond((c) => c.type(ext, charset).sendString('x'))
    expect(res.headers['content-type']).toBe(expected)
  })

  it.each(['utf-8\r\nSet-Cookie: a=1', 'utf-8\nx', 'a\u0000'])(
    'type() refuses a charset with CR/LF or controls (%j) with a 400 WEFT_INVALID_HEADER',
    async (charset) => {
      const res = await respond((c) => c.type('txt', charset).sendString('x'))
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('WEFT_INVALID_HEADER')
      expect(res.headers['set-cookie']).toBeUndefined()
    },
  )

  it.each(['/', '.', '..', 'dir/..', '\u0001\u0002', '/tmp/.'])(
    'attachment(%j): a name that sanitises to nothing or a dot falls back to download',
    async (name) => {
      const res = await respond((c) => c.attachment(name).sendString('x'))
      expect(res.headers['content-disposition']).toBe('attachment; filename="download"')
    },
  )

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
