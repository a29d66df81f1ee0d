// `scheme://authority` of an absolute-form request target (`GET http://evil.example/x HTTP/1.1`),
// which Node and Fastify accept and route like `/x`; anchored, with no backtracking.
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/\\?#]*/

/**
 * The start of a request target that would make a link built from it reach another host: the
 * scheme and authority of an absolute-form target, with the run of `/` (or `\`, which browsers read
 * as `/`) that opens its path; or a path's opening run of two or more, which browsers read as
 * `//host`. `''` for an ordinary target (`/products?page=2`): the one check most requests pay.
 */
export function foreignPrefix(target: string): string {
  const second = target.charCodeAt(1)
  if (target.charCodeAt(0) === 47 /* / */ && second !== 47 && second !== 92 /* \ */) return ''
  const origin = ABSOLUTE_FORM.exec(target)?.[0] ?? ''
  let end = origin.length
  while (target[end] === '/' || target[end] === '\\') end++
  return origin !== '' || end >= 2 ? target.slice(0, end) : ''
}

/**
 * `base` as a path on the app's own origin when it starts with the request's `prefix` (see
 * `foreignPrefix`): `http://evil.example/products?page=2` → `/products?page=2`, `//evil/x` → `/evil/x`.
 * Any other base (a relative URL, an absolute URL the app chose) is returned as it is.
 */
export function onOwnOrigin(base: string, prefix: string): string {
  return prefix !== '' && base.startsWith(prefix) ? `/${base.slice(prefix.length)}` : base
}
