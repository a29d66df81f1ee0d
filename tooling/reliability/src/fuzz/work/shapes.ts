import fc from 'fast-check'
import type { FuzzRoute } from '../target.js'
import { type BinaryGrowth, binaryGrowth } from './binary-shapes.js'

/**
 * Growth shapes: an input that grows by repeating a unit, so the work oracle can send it at n, 2n and 4n
 * bytes. The text is `head + unit×k + middle + close×k + tail` (`close` nests: `[`…`]`); `{i}` in a
 * unit is the repetition's index (distinct keys), `{F}` a field the route reads.
 */
export interface TextGrowth {
  head: string
  unit: string
  middle: string
  close: string
  tail: string
  /** Query strings: the grown text once for each field the route reads (joined by `&`), so every reader sees it. */
  everyField?: boolean
}

/** Where a shape's input goes: one request header, the query string, or a body of one type. */
export type Surface = `header ${string}` | 'query' | `body ${BodyType}`

export type BodyType = 'json' | 'form' | 'multipart' | 'xml' | 'msgpack' | 'cbor'

export const bodyTypes: readonly BodyType[] = ['json', 'form', 'multipart', 'xml', 'msgpack', 'cbor']

/**
 * The request headers the work oracle grows: every one @weft/context reads (negotiation, ranges, proxy
 * headers, cookies, conditional requests), and those the apps and Fastify read (auth, CORS, types).
 */
export const grownHeaders = [
  'accept',
  'accept-language',
  'accept-encoding',
  'accept-charset',
  'range',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  'cookie',
  'if-none-match',
  'if-modified-since',
  'cache-control',
  'authorization',
  'user-agent',
  'origin',
  'x-requested-with',
  'x-token',
  'content-type',
] as const

/** A growth shape aimed at one route. */
export interface GrowthShape {
  surface: Surface
  route: FuzzRoute
  /** A field the route reads, for `{F}`. */
  field: string
  text?: TextGrowth
  /** MessagePack and CBOR shapes grow a value rather than text. */
  binary?: BinaryGrowth
}

/** The characters that make parsers backtrack, rescan or nest: separators, quotes, escapes, brackets, digits. */
const trickyPieces = [
  ' ',
  '\t',
  ',',
  ', ',
  ';',
  '; ',
  '=',
  '"',
  '\\"',
  '\\',
  "'",
  '%',
  '%2',
  '%25',
  '%41',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '<',
  '>',
  '/',
  '*',
  '-',
  '.',
  ':',
  '&',
  '?',
  '+',
  '#',
  '@',
  'a',
  'q',
  'Z',
  '0',
  '9',
] as const

/** One to four tricky pieces. */
const trickyUnit = fc.array(fc.constantFrom(...trickyPieces), { minLength: 1, maxLength: 4 }).map((p) => p.join(''))

/**
 * A unit: one tricky piece (a run of spaces, commas or digits is what a backtracking regex or a rescan
 * turns quadratic), one of the surface's own templates, tricky pieces, or a template followed by pieces.
 */
const unitOf = (templates: readonly string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...trickyPieces) },
    { weight: 3, arbitrary: fc.constantFrom(...templates) },
    { weight: 2, arbitrary: trickyUnit },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...templates), trickyUnit).map(([a, b]) => a + b) },
  )

/** Pairs that nest: the opening repeated k times, then the closing k times. */
const nestings = [
  ['(', ')'],
  ['"', '"'],
  ['[', ']'],
  ['{', '}'],
  ['<', '>'],
] as const

/** Header units: parameters, list entries, ranges, cookies, tags, addresses. */
const headerTemplates = [
  ';q=0.5',
  ';a=b',
  ';a',
  ';q=',
  ', a/b',
  'a/b;q=1, ',
  '*/*;',
  'en-US;q=0.8, ',
  '-a',
  '1.1.1.1, ',
  '1.1.1.1 ,  ',
  '::1,',
  '0-1,',
  '-1,',
  'a=b; ',
  'a=%41; ',
  'W/"x", ',
  '"x",',
  'for=1.1.1.1;',
  'max-age=1,',
  'no-cache, ',
  'xn--a.',
  'a.',
  'http,',
  'Bearer ',
] as const

/** Valid beginnings of each header, so the reader gets past its first check. */
const headerHeads: Record<string, readonly string[]> = {
  accept: ['', 'text/html', 'application/json;q=0.9, '],
  'accept-language': ['', 'en-US', 'fr;q=0.5, '],
  'accept-encoding': ['', 'gzip', 'br;q=1, '],
  'accept-charset': ['', 'utf-8', 'iso-8859-1;q=0.5, '],
  range: ['bytes=', 'bytes=0-1,', 'items=', ''],
  'x-forwarded-for': ['1.2.3.4', '', '1.2.3.4, '],
  'x-forwarded-host': ['', 'a.example', 'a.example, '],
  'x-forwarded-proto': ['', 'https', 'https, '],
  forwarded: ['', 'for=1.2.3.4', 'for=1.2.3.4;proto=https, '],
  cookie: ['', 'session=', 'a=b; '],
  'if-none-match': ['', '"x"', 'W/"x", '],
  authorization: ['Bearer ', 'Basic ', ''],
  origin: ['http://', 'https://a.example'],
  'content-type': ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=X'],
}

const headerShape = (name: string): fc.Arbitrary<TextGrowth> =>
  fc
    .tuple(
      fc.constantFrom(...(headerHeads[name] ?? [''])),
      unitOf(headerTemplates),
      fc.option(fc.constantFrom(...nestings), { freq: 6 }),
      fc.constantFrom('', 'a', ';q=1', ', x'),
    )
    .map(([head, unit, nest, tail]) => ({
      head,
      unit: nest ? nest[0] + unit : unit,
      middle: '',
      close: nest ? nest[1] : '',
      tail,
    }))

/** Query-string units: pairs, repeated keys, brackets (nesting), escapes, lists. */
const queryTemplates = [
  '&',
  '&&',
  '=',
  'a=1&',
  '{F}=1&',
  '{F}[]=1&',
  '{F}[{i}]=1&',
  'k{i}=1&',
  '[]',
  '[0]',
  '[a]',
  '%5B',
  '%',
  '%2',
  '%25',
  '%20',
  '+',
  ',',
  'a,',
  ';',
  '.',
  'a.',
  '9',
  '0',
  'e',
  '-',
] as const

/** What may stand raw in a URL; the rest is percent-encoded (a space as `+`). */
const urlSafe = (text: string) =>
  text.replace(/ /g, '+').replace(/[^\x21-\x7e]|#/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`)

const queryShape: fc.Arbitrary<TextGrowth> = fc
  .tuple(
    fc.constantFrom('', '{F}=', '{F}[', '{F}[]=', '{F}=1&', '{F}.'),
    unitOf(queryTemplates),
    fc.option(fc.constantFrom(['[', ']'], ['a[', ']'], ['%5B', '%5D'], ['{F}[', ']']), { freq: 6 }),
    fc.constantFrom('', '=1', '&{F}=1', '&page=1', 'a'),
    fc.boolean(),
  )
  .map(([head, unit, nest, tail, everyField]) => ({
    head,
    unit: urlSafe(nest ? nest[0] + unit : unit),
    middle: nest ? '=1' : '',
    close: nest ? nest[1] : '',
    tail,
    everyField,
  }))

/** JSON shapes: a grown string, whitespace, array, object keys, nesting or number, in the route's field. */
const jsonStringUnit = fc.oneof(
  fc.constantFrom('\\"', '\\\\', '\\u0041', '\\ud800', '\\n', ' ', 'a', '\\/', '%', '\\u0000'),
  trickyUnit.map((u) => JSON.stringify(u).slice(1, -1)),
)
const jsonShape: fc.Arbitrary<TextGrowth> = fc.oneof(
  jsonStringUnit.map((unit) => ({ head: '{"{F}":"', unit, middle: '', close: '', tail: '"}' })),
  fc
    .constantFrom(' ', '\t', '\n', '\r\n')
    .map((unit) => ({ head: '{"{F}"', unit, middle: '', close: '', tail: ':1}' })),
  fc
    .constantFrom('1,', '"a",', '{},', '[],', 'null,', '1.5e3,', '"\\u0000",', '{"a":1},', ' ,')
    .map((unit) => ({ head: '{"{F}":[', unit, middle: '', close: '', tail: '1]}' })),
  fc
    .constantFrom('"{F}":1,', '"k{i}":1,', '"__proto__":{},', '"{F}":"a",', '"k{i}":[],')
    .map((unit) => ({ head: '{', unit, middle: '', close: '', tail: '"{F}":1}' })),
  fc
    .constantFrom(['[', ']'], ['{"a":', '}'], ['[{"a":', '}]'], ['{"__proto__":', '}'])
    .map(([unit, close]) => ({ head: '{"{F}":', unit, middle: '1', close, tail: '}' })),
  fc
    .constantFrom(['{"{F}":', '9'], ['{"{F}":1.', '0'], ['{"{F}":1e', '9'], ['{"{F}":-', '0'], ['{"{F}":0.', '5'])
    .map(([head, unit]) => ({ head, unit, middle: '', close: '', tail: '}' })),
)

const boundary = 'X'
const part = (name: string, value: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
const end = `--${boundary}--\r\n`
const multipartShape: fc.Arbitrary<TextGrowth> = fc.oneof(
  fc
    .constantFrom(part('{F}', 'v'), part('k{i}', 'v'), part('{F}[]', 'v'), part('__proto__', 'v'))
    .map((unit) => ({ head: '', unit, middle: '', close: '', tail: end })),
  fc
    .oneof(fc.constantFrom('\r\n-', '\r\n--', '\r\n--Y', '-', '\r', '\n', `--${boundary}-`), trickyUnit)
    .map((unit) => ({
      head: `--${boundary}\r\nContent-Disposition: form-data; name="{F}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      unit,
      middle: '',
      close: '',
      tail: `\r\n${end}`,
    })),
  fc.oneof(fc.constantFrom('; a=b', ';', ' ', "; filename*=utf-8''%41", '; name="a"'), trickyUnit).map((unit) => ({
    head: `--${boundary}\r\nContent-Disposition: form-data; name="{F}"`,
    unit: unit.replace(/[\r\n]/g, ''),
    middle: '',
    close: '',
    tail: `\r\n\r\nv\r\n${end}`,
  })),
  fc.constantFrom('X-A: b\r\n', 'Content-Type: text/plain\r\n', ' \r\n').map((unit) => ({
    head: `--${boundary}\r\nContent-Disposition: form-data; name="{F}"\r\n`,
    unit,
    middle: '',
    close: '',
    tail: `\r\nv\r\n${end}`,
  })),
  fc.oneof(fc.constantFrom('\\"', '%22', '\\\\', ' ', ';'), trickyUnit).map((unit) => ({
    head: `--${boundary}\r\nContent-Disposition: form-data; name="`,
    unit: unit.replace(/"/g, '\\"'),
    middle: '',
    close: '',
    tail: `"\r\n\r\nv\r\n${end}`,
  })),
  fc.constantFrom('\r\n', 'x', '--', `--${boundary}x`).map((unit) => ({
    head: '',
    unit,
    middle: '',
    close: '',
    tail: `\r\n${part('{F}', 'v')}${end}`,
  })),
)

const xmlText = fc.oneof(
  fc.constantFrom('&amp;', '&#65;', '&#x41;', '&lt;', '&quot;', ' ', '<!---->', '<![CDATA[x]]>', '<?a?>', ']]>', '&a;'),
  trickyUnit.map((u) => u.replace(/&/g, '&amp;').replace(/</g, '&lt;')),
)
const xmlShape: fc.Arbitrary<TextGrowth> = fc.oneof(
  fc
    .constantFrom(['<a>', '</a>'], ['<{F}>', '</{F}>'], ['<a b="1">', '</a>'], ['<x:a xmlns:x="u">', '</x:a>'])
    .map(([unit, close]) => ({ head: '<root>', unit, middle: 'x', close, tail: '</root>' })),
  fc
    .constantFrom('<{F}>x</{F}>', '<k{i}>x</k{i}>', '<{F}/>', '<__proto__>x</__proto__>')
    .map((unit) => ({ head: '<root>', unit, middle: '', close: '', tail: '</root>' })),
  fc
    .constantFrom(' a="1"', ' a{i}="1"', ' xmlns:a{i}="u"', ' a="&amp;"', ' ')
    .map((unit) => ({ head: '<root><{F}', unit, middle: '', close: '', tail: '>x</{F}></root>' })),
  xmlText.map((unit) => ({ head: '<root><{F}>', unit, middle: '', close: '', tail: '</{F}></root>' })),
  xmlText.map((unit) => ({
    head: '<root><{F} a="',
    unit: unit.replace(/"/g, '&quot;'),
    middle: '',
    close: '',
    tail: '"/></root>',
  })),
  fc
    .constantFrom('<!ENTITY a{i} "x">', '<!ELEMENT a{i} ANY>', '<!-- x -->')
    .map((unit) => ({ head: '<!DOCTYPE root [', unit, middle: '', close: '', tail: ']><root/>' })),
)

/** The body types' Content-Types (urlencoded forms reuse the query shapes). */
export const contentTypes: Record<BodyType, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: `multipart/form-data; boundary=${boundary}`,
  xml: 'application/xml',
  msgpack: 'application/msgpack',
  cbor: 'application/cbor',
}

/**
 * The routes a surface is sent to: bodies and Content-Type to writes; a header to the reads (GET) that
 * say they read it, or to every read when none says so; the query string to every read.
 */
export function routesFor(surface: Surface, routes: readonly FuzzRoute[]): FuzzRoute[] {
  const reads = routes.filter((r) => r.method === 'GET')
  const writes = routes.filter((r) => r.method === 'POST' || r.method === 'PATCH' || r.method === 'PUT')
  if (surface.startsWith('body ') || surface === 'header content-type') return writes
  if (surface === 'query') return reads
  const header = surface.slice('header '.length)
  const readers = reads.filter((r) => r.headers?.includes(header))
  return readers.length > 0 ? readers : reads
}

/** Growth shapes of one surface, aimed at the routes that take it. */
export function growthShapes(surface: Surface, routes: readonly FuzzRoute[]): fc.Arbitrary<GrowthShape> {
  const aimed = routesFor(surface, routes)
  if (aimed.length === 0) throw new Error(`no route takes ${surface}`)
  const route = fc.constantFrom(...aimed)
  const field = (r: FuzzRoute) => fc.constantFrom(...(r.fields && r.fields.length > 0 ? r.fields : ['name']))
  const shape = <T>(grow: fc.Arbitrary<T>, key: 'text' | 'binary') =>
    route.chain((r) =>
      fc.tuple(field(r), grow).map(([f, g]): GrowthShape => ({ surface, route: r, field: f, [key]: g }) as GrowthShape),
    )
  if (surface === 'query') return shape(queryShape, 'text')
  if (surface.startsWith('header ')) return shape(headerShape(surface.slice('header '.length)), 'text')
  const type = surface.slice('body '.length) as BodyType
  if (type === 'msgpack' || type === 'cbor') return shape(binaryGrowth, 'binary')
  const text = { json: jsonShape, form: queryShape, multipart: multipartShape, xml: xmlShape }[type]
  return shape(text, 'text')
}

/**
 * The classic quadratic inputs of a surface, measured before the generated ones: a long run of one
 * character (spaces, digits, semicolons) followed by another, which a backtracking regex (`/ +$/`), a
 * rescan per separator or a digit-by-digit number parse turns quadratic; for MessagePack a shared
 * list referenced by every item, for CBOR a bignum.
 */
export function classicShapes(surface: Surface, routes: readonly FuzzRoute[]): GrowthShape[] {
  const route = routesFor(surface, routes)[0]
  if (!route) return []
  const field = route.fields?.[0] ?? 'name'
  const type = surface.startsWith('body ') ? (surface.slice('body '.length) as BodyType) : undefined
  if (type === 'msgpack' || type === 'cbor') {
    const kind = type === 'cbor' ? 'bignum' : 'shared'
    return [{ surface, route, field, binary: { kind, item: '"a"', sameKey: true, extType: 2 } }]
  }
  const slot: Pick<TextGrowth, 'head' | 'tail'> = {
    json: { head: '{"{F}":"', tail: 'a"}' },
    multipart: { head: `--${boundary}\r\nContent-Disposition: form-data; name="{F}"\r\n\r\n`, tail: `a\r\n${end}` },
    xml: { head: '<root><{F}>', tail: 'a</{F}></root>' },
    form: { head: '{F}=', tail: 'a' },
    none: { head: surface === 'query' ? '{F}=' : (headerHeads[surface.slice('header '.length)]?.[0] ?? ''), tail: 'a' },
  }[type ?? 'none']
  return [' ', '9', ';'].map((unit) => ({
    surface,
    route,
    field,
    text: {
      ...slot,
      unit: surface === 'query' || type === 'form' ? urlSafe(unit) : unit,
      middle: '',
      close: '',
      everyField: true,
    },
  }))
}

/** Every surface the oracle measures on a target with these routes. */
export function surfacesOf(routes: readonly FuzzRoute[]): Surface[] {
  const all: Surface[] = [
    ...grownHeaders.map((h): Surface => `header ${h}`),
    'query',
    ...bodyTypes.map((t): Surface => `body ${t}`),
  ]
  return all.filter((surface) => routesFor(surface, routes).length > 0)
}
