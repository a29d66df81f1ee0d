import fc from 'fast-check'
import { digits, headerText, hostileKeys } from './text.js'

const token = fc.oneof(
  fc.constantFrom('text', 'application', 'image', '*', 'json', 'html', 'xml', 'en', 'en-US', 'gzip', 'br', 'utf-8'),
  fc.stringMatching(/^[a-z0-9!#$&^_.+-]{0,12}$/),
)

const quality = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }).map((q) => `;q=${q.toFixed(3)}`),
  fc.constantFrom(';q=', ';q=abc', ';q=2', ';q=-1', ';q=0.00000001', ';q=1.0000', ';Q=0.5', ';level=1', ';;'),
)

/** Accept-style lists (`Accept`, `Accept-Language`, `Accept-Encoding`, `Accept-Charset`), up to 80 entries. */
const acceptList = fc
  .array(fc.tuple(token, fc.option(token, { freq: 2 }), fc.option(quality, { freq: 2 })), { maxLength: 80 })
  .map((items) => items.map(([t, sub, q]) => `${t}${sub === null ? '' : `/${sub}`}${q ?? ''}`).join(', '))

const rangeSpec = fc.oneof(
  fc.tuple(digits, digits).map(([a, b]) => `${a}-${b}`),
  digits.map((d) => `-${d}`),
  digits.map((d) => `${d}-`),
  fc.constantFrom('-', '', '1-0', '5-5', '0--1', '1-2-3', ' 0 - 1 ', 'a-b'),
)

/** `Range` headers: valid units, others, many ranges, overlapping and reversed, huge numbers. */
const range = fc
  .tuple(fc.constantFrom('bytes=', 'bytes =', 'items=', '=', 'bytes', ''), fc.array(rangeSpec, { maxLength: 120 }))
  .map(([unit, specs]) => unit + specs.join(','))

const cookiePair = fc
  .tuple(
    fc.oneof(fc.constantFrom(...hostileKeys, 'session', 'sid', 'a'), headerText(12)),
    fc.oneof(headerText(40), fc.constantFrom('%', '%zz', '%E0%A4%A', '"unterminated', '""', 'a=b=c')),
  )
  .map(([k, v]) => `${k.replace(/[;=]/g, '')}=${v.replace(/;/g, '')}`)

/** `Cookie` headers: many pairs, prototype names, broken escapes and quotes. */
const cookie = fc.array(cookiePair, { maxLength: 60 }).map((pairs) => pairs.join('; '))

const etag = fc.oneof(
  headerText(20).map((s) => `"${s.replace(/"/g, '')}"`),
  headerText(20).map((s) => `W/"${s.replace(/"/g, '')}"`),
  fc.constantFrom('*', 'W/', '"', 'W/"', ',,,', '"a"b"'),
)

/** `If-None-Match`: lists of strong and weak tags, `*`, and broken quoting. */
const ifNoneMatch = fc.array(etag, { maxLength: 60 }).map((tags) => tags.join(', '))

const ipv4 = fc.tuple(fc.nat(999), fc.nat(999), fc.nat(999), fc.nat(999)).map((p) => p.join('.'))
const ipv6 = fc
  .array(
    fc.nat(0x1ffff).map((n) => n.toString(16)),
    { minLength: 1, maxLength: 10 },
  )
  .map((p) => p.join(':'))

/** `X-Forwarded-For`: lists of v4, v6 and garbage addresses, up to 200 hops. */
const forwardedFor = fc
  .array(
    fc.oneof(ipv4, ipv6, fc.constantFrom('unknown', '', ' ', '::1', '[::1]:80', '1.2.3.4:99999'), headerText(16)),
    {
      maxLength: 200,
    },
  )
  .map((ips) => ips.join(', '))

/** A set of request headers the context operations read, each present or absent, any of them hostile. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      accept: acceptList,
      'accept-language': acceptList,
      'accept-encoding': acceptList,
      'accept-charset': acceptList,
      range,
      cookie,
      'if-none-match': ifNoneMatch,
      'if-modified-since': fc.oneof(
        headerText(40),
        fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
      ),
      'x-forwarded-for': forwardedFor,
      'x-real-ip': fc.oneof(ipv4, headerText(20)),
      'x-requested-with': fc.constantFrom('XMLHttpRequest', 'xmlhttprequest', ''),
      'x-forwarded-proto': fc.constantFrom('https', 'http', 'https,http', '', 'gopher'),
      'x-forwarded-host': headerText(40),
      authorization: fc.oneof(
        headerText(80),
        headerText(80).map((t) => `Bearer ${t}`),
        fc.constantFrom('Bearer', 'Bearer ', 'Basic Og==', 'bearer a.b.c', 'Bearer a.b', 'Bearer ....'),
      ),
    },
    { requiredKeys: [] },
  )
  .map((headers) => {
    const out: Record<string, string> = {}
    for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') out[name] = value.trim()
    return out
  })
