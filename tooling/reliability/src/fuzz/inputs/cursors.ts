import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { hostileKeys, text } from './text.js'

/** How a target signs its cursor tokens, when the suite knows it (to re-sign hostile payloads). */
export interface CursorFormat {
  /** Tokens the target really issued (from a first page), to truncate and tamper with. */
  samples: readonly string[]
  /**
   * Builds a token the target accepts as authentic around any payload (e.g. base64url JSON plus an
   * HMAC under the target's secret). Absent when the format is opaque to the suite.
   */
  sign?: (payload: string) => string
}

const base64url = fc.stringMatching(/^[A-Za-z0-9_-]{0,120}={0,2}$/)

/** JSON objects a keyset query would choke on: wrong types, huge numbers, prototype keys, SQL text. */
const hostilePayload = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .dictionary(
      fc.constantFrom('id', 'title', 'amount', 'created_at', 'v', 's', ...hostileKeys),
      fc.oneof(text(), fc.double(), fc.bigInt().map(String), fc.constantFrom(null, true, [], {}, 1e308, -1, 2 ** 63)),
      { maxKeys: 6 },
    )
    .map((o) => JSON.stringify(o)),
  fc.constantFrom(
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '[]',
    '"x"',
    '1',
    'null',
    '{',
  ),
)

/** Re-signs a payload under an unrelated key: authentic-looking, but not the target's signature. */
const wrongKeySign = (payload: string) => {
  const body = Buffer.from(payload, 'utf8').toString('base64url')
  return `${body}.${createHmac('sha256', 'not-the-secret').update(body).digest('base64url')}`
}

/**
 * Cursor tokens: random strings (some beyond 2048 characters), base64url of hostile JSON, real tokens
 * truncated or with a flipped character, tokens signed under a wrong key, and, when the target's format
 * is known, hostile payloads re-signed so they pass the signature check and reach the query.
 */
export function hostileCursors(format: CursorFormat): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [
    text(60),
    base64url,
    fc.integer({ min: 2040, max: 4096 }).map((n) => 'A'.repeat(n)),
    hostilePayload.map((p) => Buffer.from(p, 'utf8').toString('base64url')),
    hostilePayload.map(wrongKeySign),
  ]
  if (format.samples.length > 0) {
    const sample = fc.constantFrom(...format.samples)
    options.push(
      fc
        .tuple(sample, fc.double({ min: 0, max: 1, noNaN: true }))
        .map(([s, at]) => s.slice(0, Math.floor(s.length * at))),
      fc
        .tuple(sample, fc.nat(), fc.constantFrom(...'ABab01_-.='))
        .map(([s, at, c]) => (s.length === 0 ? c : s.slice(0, at % s.length) + c + s.slice((at % s.length) + 1))),
    )
  }
  if (format.sign) {
    const sign = format.sign
    options.push(hostilePayload.map((p) => sign(p)))
  }
  return fc.oneof(...options)
}
