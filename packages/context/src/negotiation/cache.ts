import type { AcceptCache, CtxBase } from '../ctx-base.js'
import { type ParsedAccept, parseAccept } from './accept-header.js'

function header(c: CtxBase, name: string): string | undefined {
  const value = c._req.headers[name]
  return Array.isArray(value) ? value.join(',') : value
}

function cacheOf(c: CtxBase): AcceptCache {
  c._accepts ??= { media: null, charset: null, encoding: null, language: null }
  return c._accepts
}

/** The request's parsed Accept header, parsed once per request. */
export function acceptOf(c: CtxBase): ParsedAccept | undefined {
  const cache = cacheOf(c)
  if (cache.media === null) cache.media = parseAccept(header(c, 'accept'), 'media')
  return cache.media
}

/** The request's parsed Accept-Charset header, parsed once per request. */
export function acceptCharsetOf(c: CtxBase): ParsedAccept | undefined {
  const cache = cacheOf(c)
  if (cache.charset === null) cache.charset = parseAccept(header(c, 'accept-charset'), 'charset')
  return cache.charset
}

/** The request's parsed Accept-Encoding header, parsed once per request. */
export function acceptEncodingOf(c: CtxBase): ParsedAccept | undefined {
  const cache = cacheOf(c)
  if (cache.encoding === null) cache.encoding = parseAccept(header(c, 'accept-encoding'), 'encoding')
  return cache.encoding
}

/** The request's parsed Accept-Language header, parsed once per request. */
export function acceptLanguageOf(c: CtxBase): ParsedAccept | undefined {
  const cache = cacheOf(c)
  if (cache.language === null) cache.language = parseAccept(header(c, 'accept-language'), 'language')
  return cache.language
}
