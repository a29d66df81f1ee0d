import vary from 'vary'
import type { CtxBase } from './ctx-base.js'
import { CONTROL_CHARACTERS, InvalidHeaderError } from './errors.js'

// The characters Node writes in a header value (tab, printable ASCII, Latin-1), as Node checks
// them. A regular expression, not a loop of charCodeAt: on the concatenated URLs of a page's links
// the loop cost about 700 instructions more (counted under callgrind).
const NOT_HEADER_CHARACTER = /[^\t\x20-\x7e\x80-\xff]/

/** True for control characters other than tab, and for characters Node cannot write in a header. */
export function hasControlChars(value: string): boolean {
  return NOT_HEADER_CHARACTER.test(value)
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/**
 * Refuses a header name that is not a token and a value with CR, LF or other control characters:
 * such values are never stripped, because silently changing a header hides the bug or attack
 * (response splitting) that produced it. The error is a 400 `WEFT_INVALID_HEADER`.
 */
export function checkHeader(name: string, value: string): void {
  if (!TOKEN.test(name)) {
    throw new InvalidHeaderError(name.replace(/[^\x20-\x7e]/g, '?').slice(0, 64), 'its name is not an HTTP token')
  }
  if (hasControlChars(value)) throw new InvalidHeaderError(name, CONTROL_CHARACTERS)
}

/**
 * Sets a response header after checking it; it replaces earlier values, Set-Cookie included
 * (Fastify's `reply.header()` would add another Set-Cookie line).
 */
export function setHeader(c: CtxBase, name: string, value: string): void {
  checkHeader(name, value)
  if (name.toLowerCase() === 'set-cookie') c._res.removeHeader('set-cookie')
  c._res.header(name, value)
}

/** Adds each cookie as its own Set-Cookie line: cookies are never folded with commas. */
function appendSetCookie(c: CtxBase, values: string[]): void {
  const existing = c._res.getHeader('set-cookie')
  const seen = new Set(
    existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)],
  )
  for (const value of values) {
    checkHeader('Set-Cookie', value)
    const v = value.trim()
    if (v === '' || seen.has(v)) continue
    seen.add(v)
    c._res.header('set-cookie', v) // Fastify adds a line for every Set-Cookie value
  }
}

function current(c: CtxBase, name: string): string {
  const value = c._res.getHeader(name)
  if (value === undefined) return ''
  return Array.isArray(value) ? value.join(', ') : String(value)
}

/** Appends values to a comma-separated response header, skipping values already present. */
export function appendHeader(c: CtxBase, name: string, values: string[]): void {
  if (name.toLowerCase() === 'set-cookie') {
    appendSetCookie(c, values)
    return
  }
  checkHeader(name, '')
  let header = current(c, name)
  const seen = new Set(header === '' ? [] : header.split(',').map((s) => s.trim()))
  for (const value of values) {
    checkHeader(name, value)
    const v = value.trim()
    if (v === '' || seen.has(v)) continue
    seen.add(v)
    header = header === '' ? v : `${header}, ${v}`
  }
  if (header !== '') c._res.header(name, header)
}

/** Adds field names to Vary without duplicates (case-insensitive); `*` collapses it. */
export function addVary(c: CtxBase, fields: string[]): void {
  let header = current(c, 'vary')
  for (const field of fields) {
    checkHeader('Vary', field)
    try {
      header = vary.append(header, field)
    } catch {
      throw new InvalidHeaderError('Vary', `'${field.slice(0, 64)}' is not a header field name`)
    }
  }
  if (header !== '') c._res.header('vary', header)
}

/**
 * Sets the Link header to `<url>; rel="rel"` entries joined by `,`, replacing an earlier Link as
 * Fiber does (a second call is the response's new list, not more of it). The rel is a quoted
 * string (`"` and `\` escaped); a last URL without a rel is added as `<url>`; no pairs: unchanged.
 */
export function setLinks(c: CtxBase, pairs: string[]): void {
  // joined in one pass (no slicing afterwards, which would copy the joined string once more)
  let entries = ''
  for (let i = 0; i < pairs.length; i += 2) {
    const url = linkURL(pairs[i] as string)
    const separator = i === 0 ? '' : ','
    if (i + 1 === pairs.length) {
      entries += `${separator}<${url}>`
      break
    }
    entries += `${separator}<${url}>; rel="${linkRel(pairs[i + 1] as string)}"`
  }
  if (entries !== '') c._res.header('link', entries)
}

// A page's next and prev links pass here on every list response, and most values need no
// escaping: the regular expressions run only for a value that has something to escape.

/** A Link URL with `<` and `>` percent-encoded; control characters refused (400). */
function linkURL(url: string): string {
  if (hasControlChars(url)) throw new InvalidHeaderError('Link', CONTROL_CHARACTERS)
  return url.includes('<') || url.includes('>') ? url.replace(/[<>]/g, encodeURIComponent) : url
}

/** A rel as the inside of a quoted string (`"` and `\` escaped); control characters refused (400). */
function linkRel(rel: string): string {
  if (hasControlChars(rel)) throw new InvalidHeaderError('Link', CONTROL_CHARACTERS)
  return rel.includes('"') || rel.includes('\\') ? rel.replace(/["\\]/g, '\\$&') : rel
}

/** A response header (case-insensitive), several values joined with `, `; `def` when absent. */
export function respHeader(c: CtxBase, key: string, def = ''): string {
  const value = c._res.getHeader(key)
  if (value === undefined) return def
  return Array.isArray(value) ? value.join(', ') : String(value)
}

/** All response headers set so far, every value as a list. */
export function respHeaders(c: CtxBase): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(c._res.getHeaders())) {
    if (value === undefined) continue
    out[name] = Array.isArray(value) ? value.map(String) : [String(value)]
  }
  return out
}
