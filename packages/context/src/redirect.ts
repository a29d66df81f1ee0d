import type { CtxBase } from './ctx-base.js'
import { encodeLocation } from './location.js'
import { host, protocol } from './request-info.js'
import { checkStatus } from './status.js'

const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:/

/** Sets status (302 by default) and Location; the body stays empty. */
export function redirect(c: CtxBase, location: string, status = 302): void {
  // the status first: a refused one must not leave a Location on the error response
  const code = checkStatus(status)
  c._res.header('location', encodeLocation(location))
  c._res.code(code)
  c._body = ''
  c._chunks = undefined
}

/**
 * The Referer to redirect back to when it resolves (absolute, or relative like `/back`) to the
 * request's own origin, else `undefined`: following a foreign Referer would make the route an
 * open redirect. The header is returned as sent only when its encoded form resolves to exactly
 * the URL that was checked; otherwise the checked URL itself.
 */
export function sameOriginReferer(c: CtxBase): string | undefined {
  const referer = c._req.headers.referer
  if (referer === undefined || referer === '') return undefined
  // a Referer is an absolute URL or an absolute path; anything else is not one
  if (!ABSOLUTE.test(referer) && referer[0] !== '/') return undefined
  let checked: URL
  let base: URL
  try {
    base = new URL(`${protocol(c)}://${host(c)}`)
    checked = new URL(referer, base)
  } catch {
    return undefined
  }
  if (checked.origin !== base.origin) return undefined
  try {
    if (new URL(encodeLocation(referer), base).href === checked.href) return referer
  } catch {
    // not encodable as sent: the checked URL is
  }
  return checked.href
}
