// `scheme://authority` of an absolute-form request target (`GET http://evil.example/x HTTP/1.1`),
// which Node and Fastify accept and route like `/x`; anchored, with no backtracking.
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/

/**
 * The request target as path and query: an absolute-form target loses the scheme and host the
 * client chose (`http://evil.example/a?b=1` → `/a?b=1`), so that nothing echoing the URL (a
 * redirect, a link) sends a browser there. Other targets are returned as they are.
 */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 47 /* / */) return target
  const authority = ABSOLUTE_FORM.exec(target)?.[0]
  if (authority === undefined) return target
  const rest = target.slice(authority.length)
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`
}
