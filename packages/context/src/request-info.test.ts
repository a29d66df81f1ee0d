import { readFileSync } from 'node:fs'
import { get as httpsGet } from 'node:https'
import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { type Ctx, handle, type WeftContextOptions, weftContext } from './index.js'

const fixture = (name: string) => new URL(`../test/tls/${name}`, import.meta.url)

async function run(
  request: {
    url?: string
    method?: 'GET' | 'POST' | 'HEAD'
    headers?: Record<string, string>
    payload?: string
    remoteAddress?: string
  },
  read: (c: Ctx) => unknown,
  options: WeftContextOptions = {},
  trustProxy: boolean | string = false,
): Promise<unknown> {
  const app = await makeApp(options, { trustProxy })
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
  app.route({ method: ['GET', 'POST'], url: '/*', handler: handle((c) => c.json(read(c))) })
  const res = await app.inject({
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    headers: request.headers,
    payload: request.payload,
    remoteAddress: request.remoteAddress,
  })
  return res.json()
}

describe('hostname, baseURL, protocol, secure', () => {
  it('reads the host without port', async () => {
    expect(await run({ headers: { host: 'Example.COM:8080' } }, (c) => [c.hostname(), c.baseURL()])).toEqual([
      'example.com',
      'http://Example.COM:8080',
    ])
  })

  it('honours X-Forwarded-Proto/Host only when trustProxy trusts the peer', async () => {
    const headers = { host: 'internal', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example' }
    const read = (c: Ctx) => [c.protocol(), c.secure(), c.hostname()]
    expect(await run({ headers }, read)).toEqual(['http', false, 'internal'])
    expect(await run({ headers }, read, {}, true)).toEqual(['https', true, 'shop.example'])
  })
})

describe('hostname, protocol, secure behind trusted proxies (Fiber rules)', () => {
  const read = (c: Ctx) => [c.hostname(), c.protocol(), c.secure(), c.baseURL()]
  it.each([
    [
      'the first X-Forwarded-Host / -Proto entry, trimmed',
      { 'x-forwarded-host': ' a.example , b.example', 'x-forwarded-proto': ' https , http' },
      ['a.example', 'https', true, 'https://a.example'],
    ],
    [
      'empty entries are skipped',
      { 'x-forwarded-host': ', ,a.example:8443', 'x-forwarded-proto': ',https' },
      ['a.example', 'https', true, 'https://a.example:8443'],
    ],
    ['X-Forwarded-Protocol is read', { host: 'h', 'x-forwarded-protocol': 'https' }, ['h', 'https', true, 'https://h']],
    ['X-Forwarded-Ssl: on means https', { host: 'h', 'x-forwarded-ssl': 'on' }, ['h', 'https', true, 'https://h']],
    ['X-Forwarded-Ssl: off is not https', { host: 'h', 'x-forwarded-ssl': 'off' }, ['h', 'http', false, 'http://h']],
    ['X-Url-Scheme is read', { host: 'h', 'x-url-scheme': 'https' }, ['h', 'https', true, 'https://h']],
    ['an IPv6 host keeps its brackets', { host: '[::1]:3000' }, ['[::1]', 'http', false, 'http://[::1]:3000']],
    [
      'an IPv6 host with a zone keeps its brackets',
      { 'x-forwarded-host': '[fe80::1%lo0]:8080' },
      ['[fe80::1%lo0]', 'http', false, 'http://[fe80::1%lo0]:8080'],
    ],
  ])('%s', async (_rule, headers, expected) => {
    expect(await run({ headers: { host: 'internal', ...headers } }, read, {}, true)).toEqual(expected)
  })

  it('ignores every forwarded header from a peer trustProxy does not trust', async () => {
    const headers = {
      host: 'internal',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      'x-url-scheme': 'https',
    }
    expect(await run({ headers, remoteAddress: '192.0.2.1' }, read, {}, '10.0.0.0/8')).toEqual([
      'internal',
      'http',
      false,
      'http://internal',
    ])
    expect(await run({ headers, remoteAddress: '10.1.1.1' }, read, {}, '10.0.0.0/8')).toEqual([
      'evil.example',
      'https',
      true,
      'https://evil.example',
    ])
  })
})

describe('subdomains', () => {
  it.each([
    ['tobi.ferrets.example.com', undefined, ['tobi', 'ferrets']],
    ['TOBI.ferrets.example.com.', undefined, ['tobi', 'ferrets']],
    ['tobi.ferrets.example.com:3000', undefined, ['tobi', 'ferrets']],
    ['tobi.ferrets.example.com', 3, ['tobi']],
    ['example.com', undefined, []],
    ['a.b.example.co.uk', 3, ['a', 'b']],
    ['127.0.0.1', undefined, []],
    ['[::1]:3000', undefined, []],
  ])('%s (offset %s) → %j', async (host, offset, expected) => {
    expect(await run({ headers: { host } }, (c) => c.subdomains(offset))).toEqual(expected)
  })

  it.each([
    ['a negative offset gives []', 'tobi.ferrets.example.com', -1, []],
    ['an offset as large as the label count gives []', 'tobi.ferrets.example.com', 4, []],
    ['a larger offset gives []', 'tobi.ferrets.example.com', 10, []],
    ['offset 0 gives every label', 'tobi.ferrets.example.com', 0, ['tobi', 'ferrets', 'example', 'com']],
    ['IDN labels are returned in Unicode', 'xn--mnchen-3ya.xn--bcher-kva.example.com', 2, ['münchen', 'bücher']],
  ])('%s', async (_rule, host, offset, expected) => {
    expect(await run({ headers: { host } }, (c) => c.subdomains(offset))).toEqual(expected)
  })

  it('uses the subdomainOffset option as default', async () => {
    expect(
      await run({ headers: { host: 'a.b.example.co.uk' } }, (c) => c.subdomains(), { subdomainOffset: 3 }),
    ).toEqual(['a', 'b'])
  })
})

describe('ip, ips, isFromLocal', () => {
  it('returns the peer address', async () => {
    expect(await run({ remoteAddress: '10.1.2.3' }, (c) => [c.ip(), c.isFromLocal()])).toEqual(['10.1.2.3', false])
  })

  it('returns the proxyHeader value when configured and present', async () => {
    const read = (c: Ctx) => c.ip()
    expect(await run({ headers: { 'x-real-ip': '203.0.113.9' } }, read, { proxyHeader: 'X-Real-IP' })).toBe(
      '203.0.113.9',
    )
    expect(await run({ remoteAddress: '10.0.0.1' }, read, { proxyHeader: 'X-Real-IP' })).toBe('10.0.0.1')
    expect(await run({ headers: { 'x-real-ip': '203.0.113.9' } }, read)).toBe('127.0.0.1')
  })

  it('lists X-Forwarded-For addresses', async () => {
    const headers = { 'x-forwarded-for': ' 203.0.113.1, 70.41.3.18 ,,150.172.238.178' }
    expect(await run({ headers }, (c) => c.ips())).toEqual(['203.0.113.1', '70.41.3.18', '150.172.238.178'])
    expect(await run({}, (c) => c.ips())).toEqual([])
  })

  it.each([
    ['the whole value of the configured header, as Fiber returns it', '203.0.113.9, 10.0.0.1', '203.0.113.9, 10.0.0.1'],
    ['an invalid value as sent', 'not-an-ip', 'not-an-ip'],
    ['an empty header value as empty', '', ''],
  ])('ip() with proxyHeader: %s', async (_rule, value, expected) => {
    const read = (c: Ctx) => c.ip()
    expect(await run({ headers: { 'x-real-ip': value } }, read, { proxyHeader: 'X-Real-IP' })).toBe(expected)
  })

  it('ip() ignores proxyHeader from a remote address trustProxy does not trust', async () => {
    const read = (c: Ctx) => c.ip()
    const request = { headers: { 'x-real-ip': '203.0.113.9' }, remoteAddress: '192.0.2.7' }
    expect(await run(request, read, { proxyHeader: 'X-Real-IP' }, '10.0.0.0/8')).toBe('192.0.2.7')
    const trusted = { ...request, remoteAddress: '10.0.0.2' }
    expect(await run(trusted, read, { proxyHeader: 'X-Real-IP' }, '10.0.0.0/8')).toBe('203.0.113.9')
  })

  it.each([
    ['spaces are trimmed', ' 1.1.1.1 ,  2.2.2.2 ', ['1.1.1.1', '2.2.2.2']],
    ['an entry of spaces is kept empty, as in Fiber', '1.1.1.1, ,2.2.2.2', ['1.1.1.1', '', '2.2.2.2']],
    ['a doubled comma is skipped, as in Fiber', '1.1.1.1,,2.2.2.2', ['1.1.1.1', '2.2.2.2']],
    ['a trailing comma adds nothing', '1.1.1.1,', ['1.1.1.1']],
    ['an empty value gives []', '', []],
  ])('ips(): %s', async (_rule, value, expected) => {
    expect(await run({ headers: { 'x-forwarded-for': value } }, (c) => c.ips())).toEqual(expected)
  })

  it('recognises loopback peers', async () => {
    expect(await run({ remoteAddress: '127.0.0.1' }, (c) => c.isFromLocal())).toBe(true)
    expect(await run({ remoteAddress: '::1' }, (c) => c.isFromLocal())).toBe(true)
    expect(await run({ remoteAddress: '192.168.0.4' }, (c) => c.isFromLocal())).toBe(false)
  })
})

describe('xhr, is, get, getReqHeaders', () => {
  it('detects XMLHttpRequest in any case', async () => {
    expect(await run({ headers: { 'x-requested-with': 'xmlhttprequest' } }, (c) => c.xhr())).toBe(true)
    expect(await run({}, (c) => c.xhr())).toBe(false)
  })

  it.each([
    ['json', 'application/json', true],
    ['.json', 'application/json; charset=utf-8', true],
    ['html', 'text/html', true],
    ['html', 'application/json', false],
    ['text/*', 'text/csv', true],
    ['nosuchext', 'application/json', false],
  ])('is(%s) with %s → %s', async (ext, type, expected) => {
    expect(await run({ method: 'POST', headers: { 'content-type': type }, payload: '{}' }, (c) => c.is(ext))).toBe(
      expected,
    )
  })

  it.each([
    ['foo', 'application/octet-stream', true],
    ['.bar', 'application/octet-stream', true],
    ['foo', 'application/json', false],
  ])('is(%s): an unknown extension stands for application/octet-stream (%s → %s)', async (ext, type, expected) => {
    expect(await run({ method: 'POST', headers: { 'content-type': type }, payload: '{}' }, (c) => c.is(ext))).toBe(
      expected,
    )
  })

  it('is() is false without a body', async () => {
    expect(await run({ headers: { 'content-type': 'application/json' } }, (c) => c.is('json'))).toBe(false)
  })

  it('reads headers case-insensitively with a default', async () => {
    expect(
      await run({ headers: { 'X-Token': 'abc' } }, (c) => [c.get('x-token'), c.get('X-TOKEN'), c.get('missing', 'd')]),
    ).toEqual(['abc', 'abc', 'd'])
  })

  it('lists every request header value', async () => {
    const all = (await run({ headers: { 'x-a': '1' } }, (c) => c.getReqHeaders())) as Record<string, string[]>
    expect(all['x-a']).toEqual(['1'])
  })
})

describe('method, path, originalURL', () => {
  it('reads and overrides method and path', async () => {
    expect(
      await run({ url: '/a/b?x=1' }, (c) => [c.method(), c.path(), c.method('post'), c.path('/z'), c.originalURL()]),
    ).toEqual(['GET', '/a/b', 'POST', '/z', '/a/b?x=1'])
  })
})

describe('cookies', () => {
  it('reads a request cookie with a default', async () => {
    expect(
      await run({ headers: { cookie: 'sid=abc; theme=dark%20blue' } }, (c) => [
        c.cookies('sid'),
        c.cookies('theme'),
        c.cookies('x', 'none'),
      ]),
    ).toEqual(['abc', 'dark blue', 'none'])
  })

  it('reads a quoted cookie without its quotes, and the first of a repeated name, as bind().cookie() does', async () => {
    const app = await makeApp()
    const Cookies = Type.Object({ s: Type.String(), n: Type.String() })
    app.get(
      '/',
      handle(async (c) => c.json({ read: [c.cookies('s'), c.cookies('n')], bound: await c.cookieParser(Cookies) })),
    )
    const res = await app.inject({ url: '/', headers: { cookie: 's="quoted"; n=1; n=2' } })
    expect(res.json()).toEqual({ read: ['quoted', '1'], bound: { s: 'quoted', n: '1' } })
  })
})

describe('malformed request headers', () => {
  it('reads what it can of a malformed Cookie header', async () => {
    expect(
      await run({ headers: { cookie: '%%%; =x; a=%E0%A4%A; b=2' } }, (c) => [
        c.cookies('a'),
        c.cookies('b'),
        c.cookies('x', 'd'),
      ]),
    ).toEqual(['%E0%A4%A', '2', 'd'])
  })

  it('answers negotiation on a malformed Accept header with nothing acceptable', async () => {
    expect(await run({ headers: { accept: ';;;,,,/;q=x' } }, (c) => c.accepts('json'))).toBe('')
  })
})

describe('fresh and stale', () => {
  async function freshness(
    headers: Record<string, string>,
    response: Record<string, string>,
    method: 'GET' | 'POST' = 'GET',
  ) {
    const app = await makeApp()
    app.route({
      method: ['GET', 'POST'],
      url: '/',
      handler: handle((c) => {
        for (const [k, v] of Object.entries(response)) c.set(k, v)
        c.json([c.fresh(), c.stale()])
      }),
    })
    return (await app.inject({ method, url: '/', headers })).json()
  }

  it.each([
    ['matching ETag', { 'if-none-match': '"abc"' }, { ETag: '"abc"' }, true],
    ['weak ETag comparison', { 'if-none-match': 'W/"abc"' }, { ETag: '"abc"' }, true],
    ['other ETag', { 'if-none-match': '"xyz"' }, { ETag: '"abc"' }, false],
    ['If-None-Match: *', { 'if-none-match': '*' }, { ETag: '"abc"' }, true],
    [
      'Last-Modified before IMS',
      { 'if-modified-since': 'Sat, 01 Jan 2022 00:00:00 GMT' },
      { 'Last-Modified': 'Fri, 31 Dec 2021 00:00:00 GMT' },
      true,
    ],
    [
      'Last-Modified after IMS',
      { 'if-modified-since': 'Sat, 01 Jan 2022 00:00:00 GMT' },
      { 'Last-Modified': 'Sun, 02 Jan 2022 00:00:00 GMT' },
      false,
    ],
    [
      'ETag wins over IMS',
      { 'if-none-match': '"xyz"', 'if-modified-since': 'Sat, 01 Jan 2022 00:00:00 GMT' },
      { ETag: '"abc"', 'Last-Modified': 'Fri, 31 Dec 2021 00:00:00 GMT' },
      false,
    ],
    ['no-cache', { 'if-none-match': '"abc"', 'cache-control': 'no-cache' }, { ETag: '"abc"' }, false],
    ['NO-CACHE in any case', { 'if-none-match': '"abc"', 'cache-control': 'NO-CACHE' }, { ETag: '"abc"' }, false],
    [
      'No-Cache among other directives',
      { 'if-none-match': '"abc"', 'cache-control': 'max-age=0, No-Cache' },
      { ETag: '"abc"' },
      false,
    ],
    ['no conditional headers', {}, { ETag: '"abc"' }, false],
  ])('%s → fresh %s', async (_name, headers, response, expected) => {
    expect(await freshness(headers, response)).toEqual([expected, !expected])
  })

  it('is never fresh for other methods', async () => {
    expect(await freshness({ 'if-none-match': '"abc"' }, { ETag: '"abc"' }, 'POST')).toEqual([false, true])
  })
})

describe('clientHelloInfo and route', () => {
  it('has no TLS data over plain HTTP', async () => {
    expect(await run({}, (c) => c.clientHelloInfo() ?? null)).toBeNull()
  })

  it('reports SNI name, ALPN protocol, TLS version and cipher over HTTPS', async () => {
    // A self-signed certificate for `localhost`, made for these tests only (valid until 2125).
    const tls = { cert: readFileSync(fixture('localhost.crt')), key: readFileSync(fixture('localhost.key')) }
    const app = Fastify({ https: { ...tls, ALPNProtocols: ['http/1.1'] } })
    await app.register(weftContext)
    app.get(
      '/',
      handle((c) => c.json(c.clientHelloInfo() ?? null)),
    )
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const { port } = app.server.address() as AddressInfo
      const body = await new Promise<string>((resolve, reject) => {
        const options = { host: '127.0.0.1', port, servername: 'localhost', ca: tls.cert, ALPNProtocols: ['http/1.1'] }
        httpsGet(options, (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (chunk) => (text += chunk))
          res.on('end', () => resolve(text))
        }).on('error', reject)
      })
      const info = JSON.parse(body)
      expect(info).toMatchObject({ serverName: 'localhost', alpnProtocol: 'http/1.1' })
      expect(info.protocol).toMatch(/^TLSv1\.[23]$/)
      expect(info.cipher).toMatch(/^[A-Z0-9_-]+$/)
    } finally {
      await app.close()
    }
  })

  it('describes the matched route', async () => {
    const app = await makeApp()
    const first = (c: Ctx) => c.next()
    const second = (c: Ctx) => {
      const r = c.route()
      c.json({
        method: r.method,
        path: r.path,
        params: r.params,
        handlers: r.handlers.length,
        first: r.handlers[0] === first,
      })
    }
    app.get('/users/:id/files/*', handle(first, second))
    expect((await app.inject('/users/1/files/a')).json()).toEqual({
      method: 'GET',
      path: '/users/:id/files/*',
      params: ['id', '*'],
      handlers: 2,
      first: true,
    })
  })
})
