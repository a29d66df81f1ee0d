import { type Buffer, isUtf8 } from 'node:buffer'

/**
 * The bytes as text, or `undefined` when they are not UTF-8. Decoding turns every byte sequence
 * that is not UTF-8 into U+FFFD, so a text without that character came from valid bytes and only
 * one with it needs the native check: on the JSON route that search cost about a third of
 * `isUtf8`'s call (bench/RESULTS.md).
 */
export function utf8Text(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8')
  return text.includes('\uFFFD') && !isUtf8(bytes) ? undefined : text
}
