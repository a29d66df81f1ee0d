import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { fill, growth, LINEAR_BOUND } from '../test/work.js'
import { type Ctx, handle } from './index.js'

// Every reader of a request header, with the header it reads. Each is tried with every shape of
// input below; none may grow faster than linearly in the header (test/work.ts says how that is measured).
const readers: [string, string, (c: Ctx) => unknown][] = [
  ['accepts', 'accept', (c) => c.accepts('html', 'json', 'text/plain;level=1')],
  ['acceptsCharsets', 'accept-charset', (c) => c.acceptsCharsets('utf-8', 'latin1')],
  ['acceptsEncodings', 'accept-encoding', (c) => c.acceptsEncodings('gzip', 'br')],
  ['acceptsLanguages', 'accept-language', (c) => c.acceptsLanguages('en-US', 'fr')],
  ['format', 'accept', (c) => c.format('hi') && null],
  ['range', 'range', (c) => tryIt(() => c.range(1000))],
  ['ips', 'x-forwarded-for', (c) => c.ips()],
  ['ip (proxyHeader)', 'x-real-ip', (c) => c.ip()],
  ['hostname (X-Forwarded-Host)', 'x-forwarded-host', (c) => c.hostname()],
  ['subdomains (X-Forwarded-Host)', 'x-forwarded-host', (c) => c.subdomains()],
  ['protocol (X-Forwarded-Proto)', 'x-forwarded-proto', (c) => c.protocol()],
  ['protocol (X-Url-Scheme)', 'x-url-scheme', (c) => c.protocol()],
  ['cookies', 'cookie', (c) => c.cookies('a')],
  ['fresh (If-None-Match)', 'if-none-match', (c) => c.set('etag', '"x"').fresh()],
  ['fresh (If-Modified-Since)', 'if-modified-since', (c) => c.set('last-modified', new Date(0).toUTCString()).fresh()],
  ['fresh (Cache-Control)', 'cache-control', (c) => c.set('etag', '"x"').fresh()],
  ['is (Content-Type)', 'content-type', (c) => c.is('json')],
  ['xhr', 'x-requested-with', (c) => c.xhr()],
  ['get', 'x-anything', (c) => c.get('x-anything')],
]

const shapes: [string, (n: number) => string][] = [
  ['spaces then a letter', (n) => `a${fill(' ', n)}b`],
  ['bare semicolons', (n) => `a${fill(';', n)}`],
  ['parameters', (n) => `a/b${fill(';a=b', n)}`],
  ['parameters without values', (n) => `a/b${fill(';a', n)}`],
  ['commas', (n) => `a${fill(',', n)}b`],
  ['comma and spaces', (n) => fill(', ', n)],
  ['entries with spaces', (n) => fill('1.1.1.1 ,  ', n)],
  ['digits', (n) => `${fill('1', n)}x`],
  ['dashes', (n) => `bytes=${fill('-', n)}`],
  ['equals signs', (n) => `a${fill('=', n)}`],
  ['quotes', (n) => `a/b;c="${fill('\\"', n)}`],
  ['q values', (n) => fill('a/b;q=0.5,', n)],
]

function tryIt(read: () => unknown): unknown {
  try {
    return read()
  } catch (error) {
    return (error as { code?: string }).code
  }
}

const app = await makeApp({ proxyHeader: 'X-Real-IP' }, { trustProxy: true })
// any Content-Type reaches the handler, so that is() reads it
app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))
app.post(
  '/:reader',
  handle((c) => {
    const read = readers.find(([name]) => name === c.params('reader'))?.[2]
    return c.json({ value: read?.(c) ?? null })
  }),
)
describe('every header reader does work linear in its header', () => {
  const table = readers.flatMap(([name, header]) => shapes.map(([shape, make]) => [name, header, shape, make] as const))

  it.each(table)('%s with %s: %s', async (name, header, _shape, make) => {
    const send = (value: string) =>
      app.inject({
        method: 'POST',
        url: `/${encodeURIComponent(name)}`,
        headers: { 'content-type': 'application/json', [header]: value },
        payload: '{}',
      })
    // the reader ran; only Fastify's own Content-Type check may answer first (415)
    expect([200, 415]).toContain((await send(make(64))).statusCode)
    expect(await growth(make, send)).toBeLessThanOrEqual(LINEAR_BOUND)
  })
})

describe('every query reader does work linear in the query string', () => {
  const query: [string, (c: Ctx) => unknown][] = [
    ['query', (c) => c.query('v')],
    ['queries', (c) => Object.keys(c.queries()).length],
    ['queryInt', (c) => c.queryInt('v')],
    ['queryFloat', (c) => c.queryFloat('v')],
    ['queryBool', (c) => c.queryBool('v')],
  ]
  const values: [string, (n: number) => string][] = [
    ['many pairs', (n) => fill('v=1&', n)],
    ['many ampersands', (n) => `v=1${fill('&', n)}`],
    ['percent escapes', (n) => `v=${fill('%31', n)}`],
    ['malformed escapes', (n) => `v=${fill('%', n)}`],
    ['plus signs', (n) => `v=${fill('+', n)}`],
    ['digits then a letter', (n) => `v=${fill('1', n)}x`],
    ['a long exponent', (n) => `v=1e${fill('1', n)}x`],
  ]
  app.get(
    '/q/:reader',
    handle((c) => c.json({ value: query.find(([name]) => name === c.params('reader'))?.[1](c) ?? null })),
  )
  const table = query.flatMap(([name]) => values.map(([shape, make]) => [name, shape, make] as const))

  it.each(table)('%s with %s', async (name, _shape, make) => {
    const send = (search: string) => app.inject(`/q/${name}?${search}`)
    expect((await send(make(64))).statusCode).toBe(200)
    expect(await growth(make, send)).toBeLessThanOrEqual(LINEAR_BOUND)
  })
})
