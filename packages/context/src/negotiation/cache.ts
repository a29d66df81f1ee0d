import type { AcceptCache, CtxBase } from '../ctx-base.js'
import { type ParsedAccept, parseAccept } from './accept-header.js'

function header(c: CtxBase, name: string): string | undefined {
  const value = c._req.headers[name]
  return Array.isArray(value) ? value.join(',') : value
}

// The cache's keys are parseAccept's kinds: one parse per header and request.
function parsedOnce(c: CtxBase, kind: keyof AcceptCache, name: string): ParsedAccept | undefined {
  c._accepts ??= { media: null, charset: null, encoding: null, language: null }
  const cache = c._accepts
  if (cache[kind] === null) cache[kind] = parseAccept(header(c, name), kind)
  return cache[kind]
}

/** The request's parsed Accept header, parsed once per request. */
export function acceptOf(c: CtxBase): ParsedAccept | undefined {
  return parsedOnce(c, 'media', 'accept')
}

/** The request's parsed Accept-Charset header, parsed once per request. */
export function acceptCharsetOf(c: CtxBase): ParsedAccept | undefined {
  return parsedOnce(c, 'charset', 'accept-charset')
}

/** The request's parsed Accept-Encoding header, parsed once per request. */
export function acceptEncodingOf(c: CtxBase): ParsedAccept | undefined {
  return parsedOnce(c, 'encoding', 'accept-encoding')
}

/** The request's parsed Accept-Language header, parsed once per request. */
export function acceptLanguageOf(c: CtxBase): ParsedAccept | undefined {
  return parsedOnce(c, 'language', 'accept-language')
}
