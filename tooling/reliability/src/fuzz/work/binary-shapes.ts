import { Encoder as CborEncoder, encode as cborEncode } from 'cbor-x'
import fc from 'fast-check'
import { pack as msgpackEncode, Packr } from 'msgpackr'

/**
 * How a MessagePack or CBOR value grows: `array` (k items), `map` (k entries, one key repeated or k
 * keys), `nest` (k arrays deep), `string` / `bytes` (k units), `bignum` (CBOR tags 2 and 3 of k bytes;
 * MessagePack extensions of k bytes), `shared` (a list of k strings referenced k times: k bytes that
 * expand to k² items) and `records` (k objects of one structure, the structure sent once).
 */
export interface BinaryGrowth {
  kind: 'array' | 'map' | 'nest' | 'string' | 'bytes' | 'bignum' | 'shared' | 'records'
  /** The item repeated (a JSON text), or the text unit of `string`. */
  item: string
  /** Keys repeat (`map`): the same key k times, else `k0`…`k{n}`. */
  sameKey: boolean
  /** MessagePack extension type of `bignum` (tags 2 or 3 for CBOR, by parity). */
  extType: number
}

const items = ['1', 'null', '"a"', '{}', '[]', '1.5', '-1', '"\\u0000"', '{"a":1}', '"\\ud800"', 'true']

export const binaryGrowth: fc.Arbitrary<BinaryGrowth> = fc.record({
  kind: fc.constantFrom('array', 'map', 'nest', 'string', 'bytes', 'bignum', 'shared', 'records'),
  item: fc.oneof(
    fc.constantFrom(...items),
    fc
      .array(fc.constantFrom(' ', ',', '"', '\\', '%', '[', '{', 'a', '9', '\u0000', 'é'), {
        minLength: 1,
        maxLength: 4,
      })
      .map((p) => JSON.stringify(p.join(''))),
  ),
  sameKey: fc.boolean(),
  // msgpackr's own extensions (pointers, records, sets, errors, regexps, typed arrays, bundles), the timestamp, any other.
  extType: fc.constantFrom(0x70, 0x72, 0x73, 0x65, 0x78, 0x74, 0x62, 0x42, 0x69, -1, 1),
})

const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff]
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]

interface Format {
  value(v: unknown): Buffer
  array(count: number): number[]
  map(count: number): number[]
  text(bytes: Buffer): Buffer
  bytes(bytes: Buffer): Buffer
  bignum(bytes: Buffer, extType: number): Buffer
  shared(count: number, item: unknown): Buffer
  records(count: number, item: unknown): Buffer
}

const msgpack: Format = {
  value: (v) => Buffer.from(msgpackEncode(v)),
  array: (n) => (n < 0x10000 ? [0xdc, ...u16(n)] : [0xdd, ...u32(n)]),
  map: (n) => (n < 0x10000 ? [0xde, ...u16(n)] : [0xdf, ...u32(n)]),
  text: (b) => Buffer.concat([Buffer.from([0xdb, ...u32(b.length)]), b]),
  bytes: (b) => Buffer.concat([Buffer.from([0xc6, ...u32(b.length)]), b]),
  bignum: (b, type) => Buffer.concat([Buffer.from([0xc9, ...u32(b.length), type & 0xff]), b]),
  shared: (n, item) => {
    const list = Array.from({ length: n }, () => item)
    return Buffer.from(new Packr({ structuredClone: true }).pack(Array.from({ length: n }, () => list)))
  },
  records: (n, item) =>
    Buffer.from(new Packr({ useRecords: true }).pack(Array.from({ length: n }, () => ({ a: item, b: 1 })))),
}

const cborTag = (tag: number) => (tag < 24 ? [0xc0 | tag] : [0xd8, tag])
const cborUint = (n: number) =>
  n < 24 ? [n] : n < 0x100 ? [0x18, n] : n < 0x10000 ? [0x19, ...u16(n)] : [0x1a, ...u32(n)]

const cbor: Format = {
  value: (v) => Buffer.from(cborEncode(v)),
  array: (n) => (n < 0x10000 ? [0x99, ...u16(n)] : [0x9a, ...u32(n)]),
  map: (n) => (n < 0x10000 ? [0xb9, ...u16(n)] : [0xba, ...u32(n)]),
  text: (b) => Buffer.concat([Buffer.from([0x7a, ...u32(b.length)]), b]),
  bytes: (b) => Buffer.concat([Buffer.from([0x5a, ...u32(b.length)]), b]),
  bignum: (b, type) => Buffer.concat([Buffer.from([...cborTag(type & 1 ? 3 : 2), 0x5a, ...u32(b.length)]), b]),
  // Tag 28 marks the list shareable; each tag 29 refers back to it.
  shared: (n, item) => {
    const list = Buffer.concat([
      Buffer.from([...cborTag(28), ...cbor.array(n)]),
      ...Array.from({ length: n }, () => cbor.value(item)),
    ])
    const refs = Array.from({ length: n - 1 }, () => Buffer.from([...cborTag(29), ...cborUint(0)]))
    return Buffer.concat([Buffer.from(cbor.array(n)), list, ...refs])
  },
  records: (n, item) =>
    Buffer.from(new CborEncoder({ useRecords: true }).encode(Array.from({ length: n }, () => ({ a: item, b: 1 })))),
}

/** The value at `count` repetitions, as `{ [field]: grown }` (or the grown map itself). */
export function encodeGrowth(type: 'msgpack' | 'cbor', growth: BinaryGrowth, field: string, count: number): Buffer {
  const format = type === 'msgpack' ? msgpack : cbor
  const item = JSON.parse(growth.item) as unknown
  const encodedItem = format.value(item)
  const times = (buffer: Buffer) => Array.from({ length: count }, () => buffer)
  const wrap = (grown: Buffer) =>
    Buffer.concat([Buffer.from([type === 'msgpack' ? 0x81 : 0xa1]), format.value(field), grown])
  switch (growth.kind) {
    case 'array':
      return wrap(Buffer.concat([Buffer.from(format.array(count)), ...times(encodedItem)]))
    case 'map': {
      const entries = Array.from({ length: count }, (_, i) =>
        Buffer.concat([format.value(growth.sameKey ? field : `k${i}`), encodedItem]),
      )
      return Buffer.concat([Buffer.from(format.map(count)), ...entries])
    }
    case 'nest':
      return wrap(Buffer.concat([...times(Buffer.from(format.array(1))), encodedItem]))
    case 'string':
      return wrap(format.text(Buffer.from(String(item).repeat(count), 'utf8')))
    case 'bytes':
      return wrap(format.bytes(Buffer.alloc(count, 0xff)))
    case 'bignum':
      return wrap(format.bignum(Buffer.alloc(count, 0xa5), growth.extType))
    case 'shared':
      return wrap(format.shared(count, item))
    case 'records':
      return wrap(format.records(count, item))
  }
}
