import {
  brotliDecompress,
  brotliDecompressSync,
  gunzip,
  gunzipSync,
  inflate,
  inflateSync,
  type ZlibOptions,
} from 'node:zlib'
import {
  BadEncodingError,
  DecodedBodyTooLargeError,
  EncodingNotImplementedError,
  StackedEncodingError,
  UnsupportedEncodingError,
} from './errors.js'

type AsyncDecoder = (data: Buffer, options: ZlibOptions, cb: (error: Error | null, result: Buffer) => void) => void
type SyncDecoder = (data: Buffer, options: ZlibOptions) => Buffer

const DECODERS: Record<string, [AsyncDecoder, SyncDecoder]> = {
  gzip: [gunzip, gunzipSync],
  'x-gzip': [gunzip, gunzipSync],
  deflate: [inflate, inflateSync],
  br: [brotliDecompress as AsyncDecoder, brotliDecompressSync as SyncDecoder],
  brotli: [brotliDecompress as AsyncDecoder, brotliDecompressSync as SyncDecoder],
}
// registered codings zlib has no decoder for: 501, as Fiber answers (other unknown codings: 415)
const NOT_IMPLEMENTED = new Set(['compress', 'x-compress'])

/** Limits of `c.body()`: decoded size in bytes and how many codings may be stacked. */
export interface DecodeLimits {
  maxBytes: number
  maxCodings: number
}

/**
 * The codings of a Content-Encoding header to undo, last applied first; identity and empty
 * entries are dropped. Unknown codings are a 415, more than `maxCodings` a 415 too: each stacked
 * coding multiplies the expansion a small body can reach.
 */
export function codingsToUndo(header: string, maxCodings: number): string[] {
  const codings: string[] = []
  for (const entry of header.toLowerCase().split(',')) {
    const coding = entry.trim()
    if (coding === '' || coding === 'identity') continue
    if (NOT_IMPLEMENTED.has(coding)) throw new EncodingNotImplementedError(coding)
    if (DECODERS[coding] === undefined) throw new UnsupportedEncodingError(coding.slice(0, 32))
    codings.push(coding)
  }
  if (codings.length > maxCodings) throw new StackedEncodingError(codings.length, maxCodings)
  // reversed once at the end: unshift() per coding is quadratic in a long header
  return codings.reverse()
}

function translate(error: unknown, coding: string, maxBytes: number): Error {
  if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return new DecodedBodyTooLargeError(maxBytes)
  return new BadEncodingError(coding)
}

function decodeOnce(data: Buffer, coding: string, maxBytes: number): Promise<Buffer> {
  const decoder = (DECODERS[coding] as [AsyncDecoder, SyncDecoder])[0]
  return new Promise((resolve, reject) => {
    // zlib's asynchronous API inflates on the thread pool and stops at maxOutputLength
    decoder(data, { maxOutputLength: maxBytes }, (error, result) => {
      if (error === null) resolve(result)
      else reject(translate(error, coding, maxBytes))
    })
  })
}

/** Decodes a body off the event loop, every intermediate result capped at `maxBytes`. */
export async function decodeBody(raw: Buffer, header: string, limits: DecodeLimits): Promise<Buffer> {
  let data = raw
  for (const coding of codingsToUndo(header, limits.maxCodings)) data = await decodeOnce(data, coding, limits.maxBytes)
  return data
}

/** The same, synchronously: only for `body()` calls made before the body has been read (hooks). */
export function decodeBodySync(raw: Buffer, header: string, limits: DecodeLimits): Buffer {
  let data = raw
  for (const coding of codingsToUndo(header, limits.maxCodings)) {
    const decoder = (DECODERS[coding] as [AsyncDecoder, SyncDecoder])[1]
    try {
      data = decoder(data, { maxOutputLength: limits.maxBytes })
    } catch (error) {
      throw translate(error, coding, limits.maxBytes)
    }
  }
  return data
}
