import { CONTROL_CHARACTERS, InvalidHeaderError, InvalidRedirectError } from './errors.js'

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/
// schemes whose URLs browsers parse with `\` meaning `/` (WHATWG "special" schemes)
const SPECIAL_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file'])
// a base for resolving relative locations the way a browser resolves them against our origin
const BASE = 'http://weft.invalid/'
const UNSAFE = /%(?![0-9A-Fa-f]{2})|[^\x21-\x7e]|["<>\\^`{|}]/g

/** True for characters that would split or smuggle a header: C0 controls and DEL. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c < 32 || c === 127) return true
  }
  return false
}

/** The origin a browser would send a request for `location` to (relative ones resolve to BASE). */
function browserOrigin(location: string): string {
  try {
    return new URL(location, BASE).origin
  } catch {
    return 'invalid'
  }
}

/**
 * A Location header value: control characters (CR/LF, tab, ...) refused with a 400, `\` before
 * the query turned into the `/` that browsers read it as (for http(s) and relative URLs), then
 * whatever is not allowed in a URL percent-encoded as UTF-8 (`☃` → `%E2%98%83`), existing escapes
 * kept. If the result would still reach another origin than the value as a browser reads it,
 * it is refused with a 400 `WEFT_INVALID_REDIRECT`: the emitted URL must go where it was checked to go.
 */
export function encodeLocation(location: string): string {
  if (hasControl(location)) throw new InvalidHeaderError('Location', CONTROL_CHARACTERS)
  const scheme = SCHEME.exec(location)?.[1]?.toLowerCase()
  let out = location
  if (scheme === undefined || SPECIAL_SCHEMES.has(scheme)) {
    const end = location.search(/[?#]/)
    const head = end === -1 ? location : location.slice(0, end)
    out = head.replace(/\\/g, '/') + (end === -1 ? '' : location.slice(end))
  }
  try {
    out = out.replace(UNSAFE, (ch) => encodeURIComponent(ch))
  } catch {
    // a lone UTF-16 surrogate has no UTF-8 encoding
    throw new InvalidRedirectError()
  }
  if (browserOrigin(out) !== browserOrigin(location)) throw new InvalidRedirectError()
  return out
}
