// A walk over a MessagePack body before msgpackr decodes it, so that decoding costs time and memory
// in proportion to the body. msgpackr always honours its own extensions, whatever the options:
// records (0x72) define object shapes that later bytes reuse, shared references (0x69/0x70) repeat
// one value any number of times, bundled strings (0x62) move the reading position, and others
// build sets, typed arrays, regular expressions, errors and big integers. A JSON-shaped value needs
// none of them; only MessagePack's own timestamp extension (-1) is kept. No option turns records
// off, so the refusal is written here, in one linear pass.

import { maxBodyDepth, OpenValues } from './binary-walk.js'

const extensionNames: Record<number, string> = {
  66: 'a big integer',
  98: 'bundled strings',
  101: 'an error object',
  105: 'a shared value',
  112: 'a reference to a shared value',
  114: 'a record definition',
  115: 'a set',
  116: 'a typed array',
  120: 'a regular expression',
}

function refuseExtension(type: number): never {
  const name = extensionNames[type]
  const signed = type > 127 ? type - 256 : type
  throw new Error(
    `the MessagePack body uses extension type ${signed}${name === undefined ? '' : ` (${name})`}, which is not accepted; send maps, arrays, strings, numbers, booleans and nil`,
  )
}

/** Bytes of a big-endian unsigned integer of `size` bytes at `position` (0 past the end). */
function readLength(bytes: Uint8Array, position: number, size: number): number {
  let length = 0
  for (let i = 0; i < size; i++) length = length * 256 + (bytes[position + i] ?? 0)
  return length
}

/**
 * Throws an error that says what is refused unless `bytes` hold MessagePack maps, arrays, strings,
 * binary, numbers, booleans, nil and timestamps, nested at most {@link maxBodyDepth} deep.
 * What this walk does not read, the decoder never reads either.
 */
export function checkMsgpack(bytes: Uint8Array): void {
  const end = bytes.length
  const open = new OpenValues('MessagePack')
  let position = 0
  while (position < end) {
    if (open.complete()) return // bytes after the value are the decoder's to refuse
    const token = bytes[position++] as number
    open.count()
    let items = 0
    if (token <= 0x7f || token >= 0xe0) continue // fixints
    if (token <= 0x8f) items = (token - 0x80) * 2
    else if (token <= 0x9f) items = token - 0x90
    else if (token <= 0xbf) position += token - 0xa0
    else {
      switch (token) {
        case 0xc0:
        case 0xc2:
        case 0xc3:
          break
        case 0xc1:
          throw new Error('the MessagePack body is not well-formed: it has the byte 0xc1, which is never used')
        case 0xc4:
        case 0xd9:
          position += 1 + readLength(bytes, position, 1)
          break
        case 0xc5:
        case 0xda:
          position += 2 + readLength(bytes, position, 2)
          break
        case 0xc6:
        case 0xdb:
          position += 4 + readLength(bytes, position, 4)
          break
        case 0xc7:
        case 0xc8:
        case 0xc9: {
          const size = token === 0xc7 ? 1 : token === 0xc8 ? 2 : 4
          const length = readLength(bytes, position, size)
          checkExtension(bytes[position + size] ?? 0, length)
          position += size + 1 + length
          break
        }
        case 0xd4:
        case 0xd5:
        case 0xd6:
        case 0xd7:
        case 0xd8: {
          const length = 1 << (token - 0xd4)
          checkExtension(bytes[position] ?? 0, length)
          position += 1 + length
          break
        }
        case 0xca:
        case 0xce:
        case 0xd2:
          position += 4
          break
        case 0xcb:
        case 0xcf:
        case 0xd3:
          position += 8
          break
        case 0xcc:
        case 0xd0:
          position += 1
          break
        case 0xcd:
        case 0xd1:
          position += 2
          break
        case 0xdc:
          items = readLength(bytes, position, 2)
          position += 2
          break
        case 0xdd:
          items = readLength(bytes, position, 4)
          position += 4
          break
        case 0xde:
          items = readLength(bytes, position, 2) * 2
          position += 2
          break
        case 0xdf:
          items = readLength(bytes, position, 4) * 2
          position += 4
          break
      }
    }
    if (items > 0) {
      // each item takes a byte at least: a larger count is cut short, and the decoder says so
      if (items > end - position) throw open.cutShort()
      open.enter(items)
    }
  }
  if (!open.complete() || position > end) throw open.cutShort()
}

/**
 * Only the timestamp extension (type -1: 4, 8 or 12 bytes) and msgpackr's `undefined` (type 0,
 * which it writes for `undefined` values by default) are accepted.
 */
function checkExtension(type: number, length: number): void {
  if (type === 0) return
  if (type !== 0xff) refuseExtension(type)
  if (length !== 4 && length !== 8 && length !== 12) {
    throw new Error(`the MessagePack body has a timestamp of ${length} bytes; timestamps have 4, 8 or 12`)
  }
}
