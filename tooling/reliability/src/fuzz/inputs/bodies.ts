import { encode as cborEncode } from 'cbor-x'
import fc from 'fast-check'
import { pack as msgpackEncode } from 'msgpackr'
import { queryString } from './query.js'
import { digits, hostileKeys, text } from './text.js'

/** A request body with the Content-Type it claims (which may be wrong on purpose). */
export interface FuzzBody {
  contentType: string | undefined
  payload: Buffer
}

/** A JSON-like tree whose objects are lists of entries, so `__proto__` keys and duplicates survive. */
type Tree = null | boolean | number | string | Tree[] | { entries: [string, Tree][] }

const treeOf = (fieldNames: readonly string[]): fc.Arbitrary<Tree> => {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fieldNames) },
    { weight: 2, arbitrary: fc.constantFrom(...hostileKeys) },
    { weight: 1, arbitrary: text(10) },
  )
  const leaf: fc.Arbitrary<Tree> = fc.oneof(
    text(40),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(null, true, false, 0, -1, 2 ** 53, 1e308, -0),
    fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'x'.repeat(n)),
  )
  const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('tree'), { maxLength: 6 }),
      fc.array(fc.tuple(key, tie('tree')), { maxLength: 8 }).map((entries) => ({ entries })),
    ),
  }))
  // Most bodies are objects keyed by the route's own fields, so they get past the first type check.
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(fc.tuple(key, tree), { maxLength: 8 }).map((entries) => ({ entries })) },
    { weight: 1, arbitrary: tree },
  )
}

function toJson(tree: Tree): string {
  if (tree === null || typeof tree !== 'object') return JSON.stringify(tree) ?? 'null'
  if (Array.isArray(tree)) return `[${tree.map(toJson).join(',')}]`
  return `{${tree.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`
}

/** The tree as a plain value for binary encoders (`__proto__` as an own key, through defineProperty). */
function toValue(tree: Tree): unknown {
  if (tree === null || typeof tree !== 'object') return tree
  if (Array.isArray(tree)) return tree.map(toValue)
  const out: Record<string, unknown> = {}
  for (const [k, v] of tree.entries)
    Object.defineProperty(out, k, { value: toValue(v), enumerable: true, writable: true, configurable: true })
  return out
}

function toXml(tree: Tree, name: string): string {
  if (tree === null || typeof tree !== 'object') return `<${name}>${String(tree).replace(/[<&]/g, '')}</${name}>`
  if (Array.isArray(tree)) return tree.map((t) => toXml(t, name)).join('')
  return `<${name}>${tree.entries.map(([k, v]) => toXml(v, /^[A-Za-z_][\w.-]*$/.test(k) ? k : 'field')).join('')}</${name}>`
}

/** XML that attacks parsers rather than schemas: entities, DOCTYPEs, CDATA, deep nesting. */
const hostileXml = fc.oneof(
  fc.constant(
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><root>&lol4;</root>',
  ),
  fc.constant('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>'),
  fc.constant('<r><![CDATA[</r>]]></r>'),
  fc.integer({ min: 100, max: 5_000 }).map((n) => `${'<a>'.repeat(n)}x${'</a>'.repeat(n)}`),
  fc.constantFrom(
    '<r>&#0;</r>',
    '<r>&#xFFFFFFFF;</r>',
    '<r a="1" a="2"/>',
    '<__proto__><x>1</x></__proto__>',
    '<r>',
    '</r>',
    '',
  ),
)

const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,.-]{1,40}$/)

/** multipart/form-data with random fields and files, sometimes broken (wrong boundary, no end). */
const multipart = (fieldNames: readonly string[]) =>
  fc
    .tuple(
      boundary,
      fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...fieldNames, ...hostileKeys), text(10)),
          fc.option(text(20), { freq: 3 }),
          fc.oneof(
            text(60),
            fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
          ),
        ),
        { maxLength: 8 },
      ),
      fc.constantFrom('ok', 'no-end', 'wrong-boundary', 'no-boundary-param'),
    )
    .map(([b, parts, damage]): FuzzBody => {
      const body = parts
        .map(([name, filename, content]) => {
          const disposition = `form-data; name="${name.replace(/["\r\n]/g, '')}"${filename === null ? '' : `; filename="${filename.replace(/["\r\n]/g, '')}"`}`
          return `--${b}\r\nContent-Disposition: ${disposition}\r\n${filename === null ? '' : 'Content-Type: application/octet-stream\r\n'}\r\n${content}\r\n`
        })
        .join('')
      const end = damage === 'no-end' ? '' : `--${b}--\r\n`
      const contentType =
        damage === 'no-boundary-param'
          ? 'multipart/form-data'
          : `multipart/form-data; boundary=${damage === 'wrong-boundary' ? `${b}x` : b}`
      return { contentType, payload: Buffer.from(body + end, 'latin1') }
    })

const jsonTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'application/json; charset=latin1',
]
const otherTypes = [
  'text/plain',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/msgpack',
  'application/cbor',
  'multipart/form-data',
  'application/json;;;',
  'garbage',
  '*/*',
  '',
]

/** Cuts a payload short somewhere in its middle. */
const truncated = (body: fc.Arbitrary<FuzzBody>) =>
  fc.tuple(body, fc.double({ min: 0, max: 1, noNaN: true })).map(([b, at]) => ({
    contentType: b.contentType,
    payload: b.payload.subarray(0, Math.floor(b.payload.length * at)),
  }))

/**
 * Bodies of every Content-Type the packages read (JSON, urlencoded forms, XML, MessagePack, CBOR,
 * multipart), shaped around the route's field names: well-formed, truncated, sent under the wrong type,
 * and oversized.
 */
export function hostileBodies(fieldNames: readonly string[]): fc.Arbitrary<FuzzBody> {
  const tree = treeOf(fieldNames)
  const json = fc
    .tuple(tree, fc.constantFrom(...jsonTypes))
    .map(([t, contentType]): FuzzBody => ({ contentType, payload: Buffer.from(toJson(t), 'utf8') }))
  const form = fc
    .tuple(
      queryString(fieldNames),
      fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8'),
    )
    .map(([qs, contentType]): FuzzBody => ({ contentType, payload: Buffer.from(qs, 'utf8') }))
  const xml = fc
    .tuple(
      fc.oneof(
        tree.map((t) => toXml(t, 'root')),
        hostileXml,
      ),
      fc.constantFrom('application/xml', 'text/xml'),
    )
    .map(([x, contentType]): FuzzBody => ({ contentType, payload: Buffer.from(x, 'utf8') }))
  const msgpack = tree.map(
    (t): FuzzBody => ({ contentType: 'application/msgpack', payload: Buffer.from(msgpackEncode(toValue(t))) }),
  )
  const cbor = tree.map(
    (t): FuzzBody => ({ contentType: 'application/cbor', payload: Buffer.from(cborEncode(toValue(t))) }),
  )
  const randomBytes = fc
    .tuple(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(...jsonTypes, ...otherTypes))
    .map(([bytes, contentType]): FuzzBody => ({ contentType, payload: Buffer.from(bytes) }))
  const wrongType = fc
    .tuple(
      fc.oneof(json, form, xml, msgpack, cbor),
      fc.option(fc.constantFrom(...jsonTypes, ...otherTypes), { nil: undefined }),
    )
    .map(([b, contentType]): FuzzBody => ({ contentType, payload: b.payload }))
  const oversized = fc
    .tuple(
      fc.integer({ min: 17 * 1024, max: 3 * 1024 * 1024 }),
      fc.constantFrom(...jsonTypes, 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'),
    )
    .map(
      ([size, contentType]): FuzzBody => ({
        contentType,
        payload: Buffer.from(`{"${fieldNames[0] ?? 'a'}":"${'x'.repeat(size)}"}`),
      }),
    )
  const numbers = fc
    .tuple(fc.constantFrom(...fieldNames), digits)
    .map(([field, d]): FuzzBody => ({ contentType: 'application/json', payload: Buffer.from(`{"${field}":${d}}`) }))
  const wellFormed = fc.oneof(json, form, xml, msgpack, cbor, multipart(fieldNames))
  return fc.oneof(
    { weight: 6, arbitrary: wellFormed },
    { weight: 2, arbitrary: numbers },
    { weight: 2, arbitrary: truncated(wellFormed) },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: randomBytes },
    { weight: 1, arbitrary: oversized },
  )
}
