import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { Readable } from 'node:stream'
import { describeGrowth, GROWTH_FACTOR, LINEAR_BOUND, measureGrowth } from '@weft/tooling/work-growth'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { type ClearCookieOptions, type Ctx, handle } from './index.js'

async function respond(write: (c: Ctx) => unknown, headers: Record<string, string> = {}) {
  const app = await makeApp()
  app.get(
    '/',
    handle(async (c) => {
      await write(c)
    }),
  )
  return app.inject({ url: '/', headers })
}

/** Sends GETs for `paths` on one keep-alive connection and returns all the bytes read until the last response ends. */
function rawExchange(port: number, paths: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let text = ''
    const requests = paths.map((path, i) => {
      const close = i === paths.length - 1 ? 'connection: close\r\n' : ''
      return `GET ${path} HTTP/1.1\r\nhost: localhost\r\n${close}\r\n`
    })
    socket.on('connect', () => socket.write(requests.join('')))
    socket.on('data', (chunk) => (text += chunk))
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })
}

describe('status and sendStatus', () => {
  it('sets the status, chainably', async () => {
    expect((await respond((c) => c.status(418).sendString('tea'))).statusCode).toBe(418)
  })

  it('uses the status text as body only when the body is empty', async () => {
    const empty = await respond((c) => c.sendStatus(404))
    expect([empty.statusCode, empty.body]).toEqual([404, 'Not Found'])
    const kept = await respond((c) => c.sendString('custom').sendStatus(404))
    expect([kept.statusCode, kept.body]).toEqual([404, 'custom'])
  })
})

describe('statuses without a body', () => {
  it.each([204, 205, 304])('sendStatus(%d) sends no body, no Content-Type and no Content-Length', async (code) => {
    const res = await respond((c) => c.sendStatus(code))
    expect(res.statusCode).toBe(code)
    expect(res.body).toBe('')
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.headers['content-length']).toBeUndefined()
  })

  it.each([204, 205, 304])('a body set before sendStatus(%d) is dropped', async (code) => {
    const res = await respond((c) => c.sendString('hello').sendStatus(code))
    expect(res.body).toBe('')
    expect(res.headers['content-length']).toBeUndefined()
  })

  it.each([
    ['sendString', (c: Ctx) => c.status(205).sendString('hello')],
    ['json', (c: Ctx) => c.status(204).json({ a: 1 })],
    ['write', (c: Ctx) => c.status(304).write(Buffer.from('x'))],
    ['sendStream', (c: Ctx) => c.status(205).sendStream(Readable.from(['x']))],
  ])('%s() on a status without content sends no body and no Content-Length', async (_op, write) => {
    const res = await respond(write)
    expect(res.body).toBe('')
    expect(res.headers['content-length']).toBeUndefined()
  })

  it('sendStatus() on a code without a reason phrase (299) sends no body, no Content-Type and no Content-Length', async () => {
    const res = await respond((c) => c.sendStatus(299))
    expect([res.statusCode, res.body]).toEqual([299, ''])
    expect(res.headers['content-type']).toBeUndefined()
    expect(res.headers['content-length']).toBeUndefined()
  })

  it('sendStatus(299) keeps a body set before it, and a body written after it', async () => {
    const before = await respond((c) => c.sendString('kept').sendStatus(299))
    expect([before.body, before.headers['content-length']]).toEqual(['kept', '4'])
    const after = await respond((c) => c.sendStatus(299).sendString('later'))
    expect([after.body, after.headers['content-length']]).toEqual(['later', '5'])
  })

  it('over HTTP/1.1, 205 and 299 without a length still end cleanly and keep the connection open', async () => {
    const app = await makeApp()
    app.get(
      '/reset',
      handle((c) => c.sendStatus(205)),
    )
    app.get(
      '/unknown',
      handle((c) => c.sendStatus(299)),
    )
    app.get(
      '/next',
      handle((c) => c.sendString('next')),
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const { port } = app.server.address() as AddressInfo
      const raw = await rawExchange(port, ['/reset', '/unknown', '/next'])
      const heads = raw.split('\r\n\r\n')
      expect(raw.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 205', 'HTTP/1.1 299', 'HTTP/1.1 200'])
      expect(raw.toLowerCase()).not.toMatch(/content-length: 0/)
      expect(heads.at(-1)).toBe('next')
    } finally {
      await app.close()
    }
  })

  it.each([
    [413, 'Request Entity Too Large'],
    [416, 'Requested Range Not Satisfiable'],
    [418, "I'm a teapot"],
  ])("sendStatus(%d) uses Fiber's reason phrase %j", async (code, text) => {
    expect((await respond((c) => c.sendStatus(code))).body).toBe(text)
  })

  it.each([200.5, Number.NaN, 99, 600, '200' as unknown as number])(
    'status(%j) is refused with a 500 WEFT_INVALID_STATUS',
    async (code) => {
      for (const write of [
        (c: Ctx) => c.status(code).sendString('x'),
        (c: Ctx) => c.sendStatus(code),
        (c: Ctx) => c.redirect('/x', code),
      ]) {
        const res = await respond(write)
        expect(res.statusCode).toBe(500)
        expect(res.json().code).toBe('WEFT_INVALID_STATUS')
        // the error response carries nothing the refused call would have set
        expect(res.headers.location).toBeUndefined()
      }
    },
  )
})

describe('json, jsonp, xml', () => {
  it('sends JSON with a default or given Content-Type', async () => {
    const res = await respond((c) => c.json({ a: 1 }))
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json()).toEqual({ a: 1 })
    const custom = await respond((c) => c.json([1], 'application/problem+json'))
    expect(custom.headers['content-type']).toMatch(/^application\/problem\+json\b/)
  })

  it("json()'s Content-Type is JSON on the wire for every kind of data, and to the chain's own reads at once", async () => {
    const json = 'application/json; charset=utf-8'
    for (const data of [{ a: 1 }, [1, 2], 'text', 7, null, true]) {
      const res = await respond((c) => c.json(data))
      expect(res.headers['content-type']).toBe(json)
      expect(res.json()).toEqual(data)
    }
    const seen = await respond((c) => {
      c.json({ a: 1 })
      c.set('x-seen', c.getRespHeader('Content-Type'))
      c.set('x-all', c.getRespHeaders()['content-type']?.join() ?? 'none')
    })
    expect(seen.headers['x-seen']).toBe(json)
    expect(seen.headers['x-all']).toBe(json)
  })

  it('json() replaces a Content-Type set before it; one set after it wins', async () => {
    const app = await makeApp()
    app.addHook('preHandler', async (_request, reply) => {
      reply.type('text/html; charset=utf-8')
    })
    app.get(
      '/before',
      handle((c) => c.json({ a: 1 })),
    )
    app.get(
      '/after',
      handle((c) => c.json({ a: 1 }).type('txt')),
    )
    const before = await app.inject('/before')
    expect(before.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(before.json()).toEqual({ a: 1 })
    const after = await app.inject('/after')
    expect(after.headers['content-type']).toMatch(/^text\/plain\b/)
    expect(after.body).toBe('{"a":1}')
  })

  it("json()'s Content-Type stays with a body that replaces or extends it, and goes with a status without content", async () => {
    const bytes = await respond((c) => c.json({ a: 1 }).send(Buffer.from('raw')))
    expect(bytes.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(bytes.body).toBe('raw')
    const written = await respond((c) => {
      c.json({ a: 1 })
      c.writeString('!')
    })
    expect(written.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(written.body).toBe('{"a":1}!')
    const empty = await respond((c) => c.json({ a: 1 }).status(204))
    expect(empty.statusCode).toBe(204)
    expect(empty.headers['content-type']).toBeUndefined()
    expect(empty.body).toBe('')
  })

  it("json()'s Content-Type stays with a reply serializer of its own and with a reply sent directly", async () => {
    const app = await makeApp()
    app.get(
      '/serializer',
      handle((c) => {
        c.response().serializer((data: unknown) => `S${JSON.stringify(data)}`)
        return c.json({ a: 1 })
      }),
    )
    app.get(
      '/direct',
      handle((c) => {
        c.json({ a: 1 })
        c.set('x-seen', String(c.response().getHeader('content-type')))
        return c.response().send(Readable.from(['streamed']))
      }),
    )
    const serialized = await app.inject('/serializer')
    expect(serialized.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(serialized.body).toBe('S{"a":1}')
    const direct = await app.inject('/direct')
    expect(direct.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(direct.headers['x-seen']).toBe('application/json; charset=utf-8')
    expect(direct.body).toBe('streamed')
  })

  it("an app's onSend hook sees json()'s Content-Type", async () => {
    const app = await makeApp()
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('x-type-on-send', String(reply.getHeader('content-type')))
      return payload
    })
    app.get(
      '/',
      handle((c) => c.status(201).json({ a: 1 })),
    )
    const res = await app.inject('/')
    expect(res.statusCode).toBe(201)
    expect(res.headers['x-type-on-send']).toBe('application/json; charset=utf-8')
  })

  it('sends JSONP with the default callback and nosniff', async () => {
    const res = await respond((c) => c.jsonp({ a: '\u2028' }))
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.body).toBe(`/**/ typeof callback === 'function' && callback({"a":"\\u2028"});`)
  })

  it.each([
    ['cb', 'cb'],
    ['jQuery.fn[0]', 'jQuery.fn[0]'],
    ['$app.on_data', '$app.on_data'],
    ['', 'callback'],
  ])('keeps the callback %j as %s', async (name, expected) => {
    const res = await respond((c) => c.jsonp(1, name))
    expect(res.body).toBe(`/**/ typeof ${expected} === 'function' && ${expected}(1);`)
  })

  it.each([
    ['foo;bar()', 'foobar'],
    ['alert(1)//', 'alert1'],
    ['cb<script>', 'cbscript'],
    ['callbacks[123]', 'callbacks[123]'],
    ['a.b c', 'a.bc'],
    ['a\u2028b', 'ab'],
  ])('jsonp() strips characters outside [A-Za-z0-9_$.[]] from %j, giving %s', async (name, expected) => {
    const res = await respond((c) => c.jsonp(1, name))
    expect(res.body).toBe(`/**/ typeof ${expected} === 'function' && ${expected}(1);`)
  })

  it.each(['if', 'function', 'new', 'typeof', 'this', 'null', 'true', 'default.x', 'a[if]', '();', '1abc', 'a..b'])(
    'jsonp() falls back to callback for %j (reserved word, empty or not an expression)',
    async (name) => {
      const res = await respond((c) => c.jsonp(1, name))
      expect(res.body).toBe(`/**/ typeof callback === 'function' && callback(1);`)
    },
  )

  it('jsonp() allows reserved words as property names', async () => {
    const res = await respond((c) => c.jsonp(1, 'app.default'))
    expect(res.body).toBe(`/**/ typeof app.default === 'function' && app.default(1);`)
  })

  it.each([
    [{ 'a><script>alert(1)</script><b': 1 }],
    [{ root: { 'bad name': 1 } }],
    [{ root: { '@_x="1" onload': 'y' } }],
    [{ root: [{ ok: 1 }, { '1starts-with-digit': 2 }] }],
    [{ '': 1 }],
  ])('xml() refuses keys that are not XML Names with a 400 (%j)', async (data) => {
    const res = await respond((c) => c.xml(data))
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_INVALID_XML_NAME')
    expect(res.body).not.toContain('<script>')
  })

  it('xml() accepts XML Names with namespaces, dots, dashes and non-ASCII letters', async () => {
    const res = await respond((c) => c.xml({ 'ns:doc': { 'a.b-c_d': 1, élément: 2, '@_xml:lang': 'fr' } }))
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('<ns:doc xml:lang="fr"><a.b-c_d>1</a.b-c_d><élément>2</élément></ns:doc>')
  })

  it.each([
    ['a control character in a text', { a: 'x\u0001y' }, 'U+0001'],
    ['a control character in an attribute', { a: { '@_id': '\u001f' } }, 'U+001F'],
    ['a lone surrogate', { a: ['ok', 'x\ud800'] }, 'U+D800'],
  ])('xml() refuses %s with a 400 that names it', async (_case, data, code) => {
    const res = await respond((c) => c.xml(data))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_INVALID_XML_TEXT', message: expect.stringContaining(code) })
  })

  it('xml() keeps tabs, line breaks and characters beyond the BMP', async () => {
    const res = await respond((c) => c.xml({ a: 'x\ty\nz 😀' }))
    expect(res.body).toBe('<a>x\ty\nz 😀</a>')
  })

  it('sends XML', async () => {
    const res = await respond((c) => c.xml({ user: { name: 'Ada & co', '@_id': '1' } }))
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8')
    expect(res.body).toBe('<user id="1"><name>Ada &amp; co</name></user>')
    const wrapped = await respond((c) => c.xml([1, 2]))
    expect(wrapped.body).toBe('<response>1</response><response>2</response>')
  })
})

describe('send, sendString, sendStream, write*', () => {
  it('sends bytes', async () => {
    const res = await respond((c) => c.send(new Uint8Array([104, 105])))
    expect(res.body).toBe('hi')
    expect(res.headers['content-type']).toBe('application/octet-stream')
  })

  it('lets the last body win', async () => {
    expect((await respond((c) => c.sendString('a').json(1).sendString('b'))).body).toBe('b')
  })

  it('sends a stream with an optional size', async () => {
    const res = await respond((c) => c.sendStream(Readable.from([Buffer.from('ab'), Buffer.from('c')]), 3))
    expect(res.body).toBe('abc')
    expect(res.headers['content-length']).toBe('3')
  })

  it('appends with write, writef and writeString, counting bytes', async () => {
    const res = await respond((c) => {
      c.sendString('start;')
      const n = c.write(Buffer.from('é')) + c.writef('%s=%d;', 'n', 5) + c.writeString('end')
      c.set('X-Count', String(n))
    })
    expect(res.body).toBe('start;én=5;end')
    expect(res.headers['x-count']).toBe(String(2 + 4 + 3))
  })
})

describe('cookie and clearCookie', () => {
  it('serialises every field', async () => {
    const res = await respond((c) =>
      c
        .cookie({
          name: 'sid',
          value: 'a b',
          path: '/app',
          domain: 'example.com',
          maxAge: 60,
          expires: new Date('2030-01-01T00:00:00Z'),
          secure: true,
          httpOnly: true,
          sameSite: 'Lax',
        })
        .sendString(''),
    )
    expect(res.headers['set-cookie']).toBe(
      'sid=a%20b; Max-Age=60; Domain=example.com; Path=/app; Expires=Tue, 01 Jan 2030 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    )
  })

  it('leaves out expiry for session cookies', async () => {
    const res = await respond((c) => c.cookie({ name: 's', value: '1', maxAge: 60, sessionOnly: true }).sendString(''))
    expect(res.headers['set-cookie']).toBe('s=1')
  })

  it('refuses an invalid cookie name with 400', async () => {
    const res = await respond((c) => c.cookie({ name: 'a\r\nb', value: '1' }))
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_INVALID_HEADER')
  })

  it.each([
    ['a name with a space', { name: 'a b', value: 'v' }, 'the cookie name is not an HTTP token'],
    ['a fractional maxAge', { name: 'a', value: 'v', maxAge: 1.5 }, 'maxAge must be a whole number of seconds'],
    ['an invalid date', { name: 'a', value: 'v', expires: new Date('x') }, 'expires is not a valid date'],
    ['a path with a ;', { name: 'a', value: 'v', path: '/; Domain=evil.com' }, 'the path holds characters'],
  ])('says what is wrong with %s', async (_case, cookie, reason) => {
    const res = await respond((c) => c.cookie(cookie))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_INVALID_HEADER', message: expect.stringContaining(reason) })
    expect(res.json().message).not.toContain('control characters')
  })

  it('expires named cookies with the given path and domain', async () => {
    const res = await respond((c) => c.clearCookie('sid', { path: '/app', domain: 'example.com' }).sendString(''))
    expect(res.headers['set-cookie']).toBe('sid=; Domain=example.com; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT')
  })

  it('clearCookie() given the options the cookie was set with drops maxAge and expires', async () => {
    const options: ClearCookieOptions = {
      path: '/app',
      domain: 'example.com',
      maxAge: 1000,
      expires: new Date('2030-01-01T00:00:00Z'),
      secure: true,
      httpOnly: true,
      sameSite: 'Lax',
      sessionOnly: false,
    }
    const res = await respond((c) => c.clearCookie('sid', options).sendString(''))
    expect(res.headers['set-cookie']).toBe(
      'sid=; Domain=example.com; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    )
  })

  it.each(['Laxx', 'lax ', 'strict-ish'])(
    "refuses sameSite %j as the app's mistake: a 500 naming the option and value, no Set-Cookie",
    async (sameSite) => {
      const res = await respond((c) =>
        c.cookie({ name: 'sid', value: 'x', sameSite: sameSite as 'Lax' }).sendString('ok'),
      )
      expect(res.statusCode).toBe(500)
      expect(res.json()).toMatchObject({
        code: 'WEFT_INVALID_COOKIE_OPTION',
        message: `Cookie option sameSite is not valid: ${JSON.stringify(sameSite)} is not Lax, Strict or None`,
      })
      expect(res.headers['set-cookie']).toBeUndefined()
    },
  )

  it.each([
    ['lax', 'SameSite=Lax'],
    ['STRICT', 'SameSite=Strict'],
    ['None', 'SameSite=None'],
  ] as const)('accepts sameSite %j in any case', async (sameSite, attribute) => {
    const res = await respond((c) => c.cookie({ name: 'sid', value: 'x', secure: true, sameSite }).sendString('ok'))
    expect(res.headers['set-cookie']).toContain(attribute)
  })

  it('expires every request cookie when none is named', async () => {
    const res = await respond((c) => c.clearCookie().sendString(''), { cookie: 'a=1; b=2' })
    expect(res.headers['set-cookie']).toEqual([
      'a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    ])
  })
})

describe('format', () => {
  it.each([
    [undefined, 'text/plain; charset=utf-8', 'a <b>'],
    ['image/png', 'text/plain; charset=utf-8', 'a <b>'],
    ['*/*', 'text/plain; charset=utf-8', 'a <b>'],
    ['text/html', 'text/html; charset=utf-8', '<p>a &lt;b&gt;</p>'],
    ['application/json', 'application/json; charset=utf-8', '"a <b>"'],
    ['text/html;q=0.5, application/json', 'application/json; charset=utf-8', '"a <b>"'],
  ])('Accept %s → %s', async (accept, type, body) => {
    const res = await respond((c) => c.format('a <b>'), accept === undefined ? {} : { accept })
    expect(res.headers['content-type']).toBe(type)
    expect(res.headers.vary).toBe('Accept')
    expect(res.body).toBe(body)
  })

  it('encodes objects as JSON', async () => {
    const res = await respond((c) => c.format({ id: 1 }), { accept: 'application/json' })
    expect(res.json()).toEqual({ id: 1 })
  })
})

describe('one Set-Cookie per cookie', () => {
  const setCookies = (res: { headers: Record<string, unknown> }) => [res.headers['set-cookie'] ?? []].flat()

  it('clearCookie(name) replaces the pending cookie of that name, whatever its path (as Fiber)', async () => {
    const res = await respond((c) =>
      c.cookie({ name: 'john', value: 'doe', path: '/api' }).clearCookie('john').sendString(''),
    )
    expect(res.statusCode).toBe(200)
    expect(setCookies(res)).toEqual(['john=; Expires=Thu, 01 Jan 1970 00:00:00 GMT'])
  })

  it('clearCookie(name, options) keeps the other cookies in their order', async () => {
    const res = await respond((c) => {
      c.cookie({ name: 'a', value: '1' }).cookie({ name: 'john', value: 'doe', domain: 'example.com' })
      c.append('Set-Cookie', 'john=x; Path=/other').cookie({ name: 'b', value: '2' })
      c.clearCookie('john', { path: '/api' }).sendString('')
    })
    expect(setCookies(res)).toEqual(['a=1', 'b=2', 'john=; Path=/api; Expires=Thu, 01 Jan 1970 00:00:00 GMT'])
  })

  it('clearCookie() without names replaces pending cookies of every request cookie', async () => {
    const res = await respond(
      (c) => c.cookie({ name: 'a', value: 'new' }).cookie({ name: 'z', value: '1' }).clearCookie().sendString(''),
      {
        cookie: 'a=1; b=2',
      },
    )
    expect(setCookies(res)).toEqual([
      'z=1',
      'a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    ])
  })

  it('cookie() again for the same name, path and domain replaces the pending one', async () => {
    const res = await respond((c) =>
      c
        .cookie({ name: 'sid', value: '1', path: '/app', domain: 'Example.com' })
        .cookie({ name: 'sid', value: '2', path: '/app', domain: '.example.com', httpOnly: true })
        .sendString(''),
    )
    expect(setCookies(res)).toEqual(['sid=2; Domain=.example.com; Path=/app; HttpOnly'])
  })

  it('cookie() for the same name on another path or domain is another cookie, and both are sent', async () => {
    const res = await respond((c) =>
      c
        .cookie({ name: 'sid', value: '1', path: '/a' })
        .cookie({ name: 'sid', value: '2', path: '/b' })
        .cookie({ name: 'sid', value: '3', path: '/b', domain: 'example.com' })
        .cookie({ name: 'sidx', value: '4', path: '/a' })
        .sendString(''),
    )
    expect(setCookies(res)).toEqual([
      'sid=1; Path=/a',
      'sid=2; Path=/b',
      'sid=3; Domain=example.com; Path=/b',
      'sidx=4; Path=/a',
    ])
  })

  it('an invalid name in clearCookie() is a 400', async () => {
    const res = await respond((c) => c.cookie({ name: 'a', value: '1' }).clearCookie('a', 'b c'))
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_INVALID_HEADER')
  })

  it('clearCookie() of many request cookies costs time linear in their number', async () => {
    const clearAll = (count: number) => async () => {
      const cookie = Array.from({ length: count }, (_, i) => `c${i}=1`).join('; ')
      const res = await respond((c) => c.clearCookie().sendString(''), { cookie })
      expect(setCookies(res)).toHaveLength(count)
    }
    const growth = await measureGrowth(clearAll(1000), clearAll(1000 * GROWTH_FACTOR))
    expect(growth.ratio, describeGrowth(growth)).toBeLessThanOrEqual(LINEAR_BOUND)
  })
})
