import type { CtxBase } from '../ctx-base.js'
import { type ParsedAccept, parseAccept } from './accept-header.js'

function header(c: CtxBase, name: string): string | undefined {
  const value = c._req.headers[name]
  return Array.isArray(value) ? value.join(',') : value
}

/** The request's parsed Accept header, parsed once per request. */
export function acceptOf(c: CtxBase): ParsedAccept | undefined {
  if (c._accept === null) c._accept = parseAccept(header(c, 'accept'), 'media')
  return c._accept
}

/** The request's parsed Accept-Charset header, parsed once per request. */
export function acceptCharsetOf(c: CtxBase): ParsedAccept | undefined {
  if (c._acceptCharset === null) c._acceptCharset = parseAccept(header(c, 'accept-charset'), 'charset')
  return c._acceptCharset
}

/** The request's parsed Accept-Encoding header, parsed once per request. */
export function acceptEncodingOf(c: CtxBase): ParsedAccept | undefined {
  if (c._acceptEncoding === null) c._acceptEncoding = parseAccept(header(c, 'accept-encoding'), 'encoding')
  return c._acceptEncoding
}

/** The request's parsed Accept-Language header, parsed once per request. */
export function acceptLanguageOf(c: CtxBase): ParsedAccept | undefined {
  if (c._acceptLanguage === null) c._acceptLanguage = parseAccept(header(c, 'accept-language'), 'language')
  return c._acceptLanguage
}
