import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { type Ctx, handle } from './index.js'

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

describe('json, jsonp, xml', () => {
  it('sends JSON with a default or given Content-Type', async () => {
    const res = await respond((c) => c.json({ a: 1 }))
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json()).toEqual({ a: 1 })
    const custom = await respond((c) => c.json([1], 'application/problem+json'))
    expect(custom.headers['content-type']).toMatch(/^application\/problem\+json\b/)
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
    ['alert(1)//', 'callback'],
    ['a;b', 'callback'],
    ['1abc', 'callback'],
    ['', 'callback'],
  ])('sanitises the callback %j to %s', async (name, expected) => {
    const res = await respond((c) => c.jsonp(1, name))
    expect(res.body).toBe(`/**/ typeof ${expected} === 'function' && ${expected}(1);`)
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

  it('expires named cookies with the given path and domain', async () => {
    const res = await respond((c) => c.clearCookie('sid', { path: '/app', domain: 'example.com' }).sendString(''))
    expect(res.headers['set-cookie']).toBe('sid=; Domain=example.com; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT')
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
