import fc from 'fast-check'

/** Every C0 control (U+0000–U+001F), DEL and every C1 control (U+0080–U+009F). */
export const controlCharacters: readonly string[] = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  '\u007f',
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)),
]

/** UTF-16 code units that are not well-formed text on their own (JSON escapes them as `\udXXX`). */
export const loneSurrogates: readonly string[] = ['\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800']

/** Code points that change meaning, width or length when a server normalises, folds or renders them. */
export const trickyUnicode: readonly string[] = [
  '\ufeff', // byte-order mark
  '\ufffe',
  '\uffff',
  '\u202e', // right-to-left override
  '\u200b', // zero-width space
  '\u2028', // line separator (breaks JS string literals)
  'İ', // lower-cases to two code points
  'ß', // upper-cases to "SS"
  'ﬁ', // NFKC expands it
  'ｆｕｌｌｗｉｄｔｈ',
  'e\u0301'.repeat(50), // combining marks
  '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}', // one grapheme, eight code units
]

/** One mebibyte: big enough to cross every body limit and column size. */
export const oneMiB = 1024 * 1024

const control = fc.constantFrom(...controlCharacters)

/**
 * What can be spliced into an otherwise valid string: one control (NUL favoured: it is the one PostgreSQL
 * refuses in `text`), a run of controls, a lone surrogate or a tricky code point.
 */
export const hostileInfix: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('\u0000') },
  { weight: 4, arbitrary: control },
  { weight: 1, arbitrary: fc.array(control, { minLength: 2, maxLength: 8 }).map((cs) => cs.join('')) },
  { weight: 2, arbitrary: fc.constantFrom(...loneSurrogates) },
  { weight: 1, arbitrary: fc.constantFrom(...trickyUnicode) },
)

/** `valid` with a hostile infix at a chosen position (start, middle or end): the value still looks right. */
export const spliced = (valid: string): fc.Arbitrary<string> =>
  fc
    .tuple(hostileInfix, fc.nat({ max: valid.length }))
    .map(([infix, at]) => valid.slice(0, at) + infix + valid.slice(at))

/** Huge strings: 1 MiB of one character, or of controls, or a near-valid prefix with a NUL at the end. */
export const hugeString: fc.Arbitrary<string> = fc.oneof(
  fc.constant('a'.repeat(oneMiB)),
  fc.constant('\u0000'.repeat(oneMiB)),
  fc.constant(`${'é'.repeat(oneMiB / 2)}\u0000`),
  fc.integer({ min: 257, max: 70_000 }).map((n) => 'x'.repeat(n)),
)

/** A string made only of hostile material (no valid part to hide behind). */
export const hostileOnly: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileInfix },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: hugeString },
)
