import fc from 'fast-check'

/** Keys that pollute prototypes when a parser assigns them naively. */
export const hostileKeys = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  '__lookupSetter__',
] as const

/** Strings that look like SQL, paths, templates or numbers where they should not. */
export const hostileStrings = [
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  '1 OR 1=1',
  'id; select pg_sleep(10)',
  '"',
  '\\',
  '../../etc/passwd',
  '$' + '{jndi:ldap://x}', // a log4j lookup, spelled so it is not a template placeholder
  '{{7*7}}',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '9'.repeat(40),
  '0x1F',
  '\u0000',
  '\u202e',
  '\ud800',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
] as const

/** Invalid or tricky percent-encodings. */
export const badEscapes = [
  '%',
  '%%',
  '%z',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%ff%fe',
  '%00',
  '%u0041',
  '%2',
  '%F0%9F%98',
] as const

/** Any short text: ASCII, full Unicode (lone surrogates included), or one of the hostile strings. */
export const text = (maxLength = 24): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 2, arbitrary: fc.constantFrom(...hostileStrings) },
  )

/** Decimal digit strings, from small to far beyond any integer type. */
export const digits: fc.Arbitrary<string> = fc.oneof(
  fc.nat().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 40n }).map(String),
  fc.integer({ min: 1, max: 400 }).map((n) => '9'.repeat(n)),
)

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`

/** Percent-encodes a string's UTF-8 bytes, leaving unreserved ASCII as is. */
export function percentEncode(value: string): string {
  let out = ''
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte)
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : hex(byte)
  }
  return out
}

/**
 * A URL component: the text percent-encoded, raw, or with broken escapes spliced in. Raw text keeps only
 * printable ASCII so the request line itself stays parseable (the server must cope with the rest).
 */
export const urlComponent = (inner: fc.Arbitrary<string> = text()): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: inner.map(percentEncode) },
    { weight: 2, arbitrary: inner.map((s) => s.replace(/[^\x21-\x7e]|[#?&=]/g, '')) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(inner.map(percentEncode), fc.constantFrom(...badEscapes), fc.nat(24))
        .map(([s, bad, at]) => s.slice(0, at) + bad + s.slice(at)),
    },
  )

/** Header-safe text (visible ASCII, space, tab and Latin-1), which is what reaches a server over TCP. */
export const headerText = (maxLength = 64): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')),
    fc.string({ unit: 'binary', maxLength }).map((s) => s.replace(/[^\t\x20-\x7e\xa0-\xff]/g, '')),
    fc.constantFrom(...hostileStrings).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')),
  )
