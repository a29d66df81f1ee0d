import type { Buffer } from 'node:buffer'
import type { FastifyRequest } from 'fastify'
import { bodyBytes } from './body-bytes.js'

// JSON strings with lone surrogates come only from `\u` escapes: UTF-8 text cannot hold one (the
// parser refuses bytes that are not UTF-8). So a body whose text has no backslash at all needs no
// per-string check when it is bound; on the peer JSON route those checks (a native call per
// string) cost more than this one-character search, a `memchr` (bench/RESULTS.md). The parser
// notes the bytes of the last such body; binding it right after, as Fastify does when the parser
// hands it over, finds them still noted. Any other order (a body parsed in between, a body from
// another parser) checks every string. What the app itself puts in `request.body` meanwhile is
// its own text, not the client's, and is not checked again.
let escapeFreeBytes: Buffer | undefined

/** Called by binding's JSON parser with each body's bytes and text. */
export function noteJsonText(bytes: Buffer, text: string): void {
  escapeFreeBytes = text.indexOf('\\') === -1 ? bytes : undefined
}

/** Whether the request's body was parsed by binding's JSON parser from text without escapes. */
export function hasNoEscapes(request: FastifyRequest): boolean {
  const bytes = bodyBytes(request)
  return bytes !== undefined && bytes === escapeFreeBytes
}
