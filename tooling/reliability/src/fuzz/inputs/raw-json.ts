import fc from 'fast-check'

/**
 * Bodies are built as JSON text, not through `JSON.stringify` of a value: duplicated keys, `__proto__`
 * keys, numbers no double holds and bytes that are not UTF-8 exist only in text.
 */

/** Numbers outside int32, int64 and double, and the edges of each, as JSON number literals. */
export const hostileNumbers: readonly string[] = [
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '123456789012345678901234567890',
  '1e308',
  '1.8e308', // JSON.parse makes it Infinity
  '-1e400',
  '5e-324',
  '1e-400',
  '-0',
  '0.5',
  '1.0',
  '1e2',
  '0e0',
  '-1',
]

/** Values of the wrong JSON type, whatever the field. */
export const wrongTypes: readonly string[] = ['null', 'true', 'false', '[]', '{}', '""', '"1"', '[1]', '{"a":1}']

/**
 * Nesting far deeper than any document: arrays or objects, from a depth a recursive parser still takes to
 * one that overflows a naive one. The body limit cuts the deepest ones short (which must be a 413, too).
 */
export const deepJson: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(64, 1_000, 5_000, 100_000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  )

/** Objects aimed at prototype pollution, as a field value or merged into the body. */
export const pollutingEntries: readonly string[] = [
  '"__proto__":{"polluted":true,"isAdmin":true,"role":"admin"}',
  '"constructor":{"prototype":{"polluted":true}}',
  '"prototype":{"polluted":true}',
  '"__proto__":null',
  '"__proto__":[]',
  '"toString":"x"',
  '"hasOwnProperty":1',
]

/** Stands in a JSON string for bytes that are not UTF-8 (see `encodeRaw`); no generator produces it. */
export const invalidBytesMark = '\ue000\ue001\ue002'

/**
 * Byte sequences no UTF-8 decoder may accept: overlong forms (of NUL, `/`, `"`), lone continuation bytes,
 * 0xFE/0xFF, truncated sequences, CESU-8 surrogates and code points above U+10FFFF.
 */
export const invalidUtf8: readonly number[][] = [
  [0xc0, 0x80], // overlong NUL
  [0xc0, 0xaf], // overlong "/"
  [0xc0, 0xa2], // overlong '"'
  [0xe0, 0x80, 0x80],
  [0xf0, 0x80, 0x80, 0x80],
  [0x80],
  [0xbf],
  [0xfe],
  [0xff],
  [0xe2, 0x82], // truncated "€"
  [0xf0, 0x9f, 0x98], // truncated emoji
  [0xed, 0xa0, 0x80], // UTF-16 surrogate encoded (CESU-8)
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0xf8, 0x88, 0x80, 0x80, 0x80], // five-byte form
]

/** JSON text to bytes, each `invalidBytesMark` replaced by the next invalid sequence. */
export function encodeRaw(text: string, sequences: readonly number[][]): Buffer {
  const parts = text.split(invalidBytesMark)
  const out: Buffer[] = []
  parts.forEach((part, i) => {
    out.push(Buffer.from(part, 'utf8'))
    if (i < parts.length - 1) out.push(Buffer.from(sequences[i % sequences.length] ?? [0xff]))
  })
  return Buffer.concat(out)
}

/** A JSON object's text from raw entries (`"key":value`), duplicates and all. */
export const objectText = (entries: readonly string[]) => `{${entries.join(',')}}`

/** One raw entry. */
export const entry = (key: string, rawValue: string) => `${JSON.stringify(key)}:${rawValue}`
