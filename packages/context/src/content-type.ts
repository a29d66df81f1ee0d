import { basename } from 'node:path'
import contentDisposition from 'content-disposition'
import { lookup } from 'mime-types'
import type { CtxBase } from './ctx-base.js'
import { checkHeader } from './headers.js'

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/g
const TEXTUAL = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|javascript|xml)\b)|[+/](?:json|xml)$/

// extensions Fiber knows and the mime-db does not
const EXTRA_TYPES: Record<string, string> = { msgpack: 'application/vnd.msgpack', cbor: 'application/cbor' }

/** The MIME type of an extension (`html`, `.json`) or file name; octet-stream when unknown. */
export function mimeOf(ext: string): string {
  const bare = ext.startsWith('.') ? ext.slice(1) : ext
  return lookup(bare) || EXTRA_TYPES[bare.toLowerCase()] || 'application/octet-stream'
}

/**
 * Content-Type for an extension: `charset` when given, else `charset=utf-8` for text, JSON,
 * JavaScript and XML types.
 */
export function contentTypeFor(ext: string, charset?: string): string {
  const type = mimeOf(ext)
  if (charset !== undefined && charset !== '') return `${type}; charset=${charset}`
  return TEXTUAL.test(type) ? `${type}; charset=utf-8` : type
}

/** Sets Content-Type from an extension; a charset with CR/LF or controls is a 400 `WEFT_INVALID_HEADER`. */
export function setType(c: CtxBase, ext: string, charset?: string): void {
  const value = contentTypeFor(ext, charset)
  checkHeader('Content-Type', value)
  c._res.type(value)
}

/**
 * Sets `Content-Disposition: attachment`; with a file name, its base name (control characters
 * removed, RFC 8187 `filename*` for non-ASCII names) and the Content-Type of its extension.
 */
export function setAttachment(c: CtxBase, filename?: string): void {
  if (filename === undefined || filename === '') {
    c._res.header('content-disposition', 'attachment')
    return
  }
  let name = basename(filename.replace(/\\/g, '/')).replace(CONTROL, '')
  // nothing usable left (`/`, `.`, `..`, only controls): a neutral name rather than none
  if (name === '' || name === '.' || name === '..') name = 'download'
  // an ASCII fallback makes content-disposition add filename* for every non-ASCII name (RFC 8187)
  const fallback = name.replace(/[^\x20-\x7e]/g, '?')
  c._res.header('content-disposition', contentDisposition(name, { fallback }))
  setType(c, name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '')
}
