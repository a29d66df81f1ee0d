import type { CtxBase } from './ctx-base.js'
import { encodeLocation } from './headers.js'
import { protocol } from './request-info.js'

/** Sets status (302 by default) and Location; the body stays empty. */
export function redirect(c: CtxBase, location: string, status = 302): void {
  c._res.header('location', encodeLocation(location))
  c._res.code(status)
  c._body = ''
  c._chunks = undefined
}

/**
 * The Referer when it has the request's own origin, else `undefined`: following a foreign
 * Referer would make the route an open redirect.
 */
export function sameOriginReferer(c: CtxBase): string | undefined {
  const referer = c._req.headers.referer
  if (referer === undefined || referer === '') return undefined
  const origin = `${protocol(c)}://${c._req.host}`
  try {
    const url = new URL(referer)
    return url.origin === new URL(origin).origin ? referer : undefined
  } catch {
    return undefined
  }
}
