// A walk over a CBOR body before cbor-x decodes it, so that decoding costs time and memory in
// proportion to the body. cbor-x always honours tags that a JSON-shaped value never needs and that
// cost far more than their bytes: shared references (28/29) and packed values (51/6) repeat one
// value any number of times, record tags define objects from earlier keys, and bignums (2/3) are
// decoded in quadratic time. Its tags are one table for the whole process (`addExtension` would
// change them for every other user of cbor-x), so the refusal is written here, in one linear pass.

import { maxBodyDepth, OpenValues } from './binary-walk.js'

/** The tags a bound value may carry: dates, bignums (bounded), decimal fractions, self-description. */
const allowedTags = new Set([0, 1, 2, 3, 4, 5, 55799])

/** Bytes of the largest bignum accepted: 2^1024, past the largest number a field can hold. */
export const maxBignumBytes = 128

const tagNames: Record<number, string> = {
  6: 'a packed reference',
  25: 'a string reference',
  27: 'a serialized object',
  28: 'a shared value',
  29: 'a reference to a shared value',
  51: 'a table of packed values',
  105: 'a record',
  256: 'a string-reference namespace',
  258: 'a set',
  259: 'a map with non-text keys',
}

function tagName(tag: number): string {
  const name = tagNames[tag]
  if (name !== undefined) return `tag ${tag} (${name})`
  if (tag >= 64 && tag <= 87) return `tag ${tag} (a typed array)`
  if (tag >= 0xdff9 && tag <= 0xdfff) return `tag ${tag} (a record)`
  return `tag ${tag}`
}

/**
 * Throws an error that says what is refused unless `bytes` hold one CBOR value made of maps, arrays, text
 * and byte strings, numbers, booleans, null and the tags in `allowedTags`, nested at most
 * {@link maxBodyDepth} deep, and well-formed: what this walk does not read, the decoder never
 * reads either.
 */
export function checkCbor(bytes: Uint8Array): void {
  const end = bytes.length
  const open = new OpenValues('CBOR')
  let position = 0
  while (position < end) {
    if (open.complete()) return // bytes after the value are the decoder's to refuse
    const initial = bytes[position++] as number
    const major = initial >> 5
    const info = initial & 0x1f
    if (info === 31) {
      if (major === 7) {
        // a break ends the innermost indefinite container
        if (open.top !== -1) throw malformed('a break outside an indefinite-length array or map')
        open.leave()
        continue
      }
      if (major === 4 || major === 5) {
        open.count()
        open.enter(-1)
        continue
      }
      throw malformed(major === 2 || major === 3 ? 'an indefinite-length string' : 'an unknown initial byte')
    }
    let argument = info
    if (info >= 24) {
      const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
      if (size === 0) throw malformed('an unknown initial byte')
      if (position + size > end) throw open.cutShort()
      if (major === 7) {
        if (info === 24) throw new Error('the CBOR body uses a simple value that is not true, false or null')
        position += size
        open.count()
        continue
      }
      argument = 0
      for (let i = 0; i < size; i++) argument = argument * 256 + (bytes[position++] as number)
    }
    open.count()
    switch (major) {
      case 2:
      case 3:
        position += argument
        if (position > end) throw open.cutShort()
        break
      case 4:
      case 5: {
        const items = major === 5 ? argument * 2 : argument
        // each item takes a byte at least: a larger count is cut short, and the decoder says so
        if (items > end - position) throw open.cutShort()
        if (items > 0) open.enter(items)
        break
      }
      case 6:
        checkTag(bytes, position, argument)
        open.enter(1)
        break
      case 7:
        if (argument < 20 || argument > 23) {
          throw new Error('the CBOR body uses a simple value that is not true, false or null')
        }
        break
    }
  }
  if (!open.complete()) throw open.cutShort()
}

function malformed(what: string): Error {
  return new Error(`the CBOR body is not well-formed: it has ${what}`)
}

function checkTag(bytes: Uint8Array, position: number, tag: number): void {
  if (!allowedTags.has(tag)) {
    throw new Error(
      `the CBOR body uses ${tagName(tag)}, which is not accepted; send maps, arrays, strings, numbers, booleans and null`,
    )
  }
  if (tag !== 2 && tag !== 3) return
  const head = bytes[position]
  if (head === undefined || head >> 5 !== 2 || (head & 0x1f) === 31) {
    throw new Error('the CBOR body has a bignum whose content is not a byte string')
  }
  const info = head & 0x1f
  let length = info
  if (info >= 24) {
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : 8
    length = 0
    for (let i = 1; i <= size; i++) length = length * 256 + (bytes[position + i] ?? 0)
  }
  if (length > maxBignumBytes) {
    throw new Error(
      `the CBOR body has a bignum of ${length} bytes; at most ${maxBignumBytes} bytes (a number up to 2^1024) are accepted`,
    )
  }
}
