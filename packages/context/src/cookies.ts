import { parseCookieHeader } from '@weft/binding'
import { serialize } from 'cookie'
import type { CtxBase } from './ctx-base.js'
import { InvalidCookieOptionError, InvalidHeaderError } from './errors.js'

/** The values of a cookie's `sameSite` option. */
export type CookieSameSite = 'Lax' | 'Strict' | 'None' | 'lax' | 'strict' | 'none' | 'LAX' | 'STRICT' | 'NONE'

/**
 * A response cookie (Fiber: Cookie). JSON names, as Fiber's: `max_age`, `http_only`,
 * `same_site`, `session_only`.
 *
 * @example
 * ```ts
 * c.cookie({ name: 'sid', value: token, httpOnly: true, secure: true, sameSite: 'Lax', maxAge: 3600 })
 * ```
 */
export interface Cookie {
  name: string
  value: string
  path?: string
  domain?: string
  /** Lifetime in seconds. */
  maxAge?: number
  expires?: Date
  secure?: boolean
  httpOnly?: boolean
  /** `'Lax'`, `'Strict'` or `'None'` (lower or upper case too); anything else is a 500 `WEFT_INVALID_COOKIE_OPTION`. */
  sameSite?: CookieSameSite
  /** A session cookie: `maxAge` and `expires` are ignored. */
  sessionOnly?: boolean
}

/**
 * Options that identify a cookie to clear: the ones it was set with (`maxAge`, `expires` and
 * `sessionOnly` may be passed along and are ignored, so the cookie really expires).
 */
export type ClearCookieOptions = Partial<Omit<Cookie, 'name' | 'value'>>

type SameSite = 'lax' | 'strict' | 'none'

/**
 * The SameSite attribute of `value`; none for `undefined` or `''`. Any other value is the app's
 * mistake (a typo such as `'Laxx'` would silently leave the cookie without the protection it
 * asked for): a 500 naming the value, from the first call that sets such a cookie.
 */
function sameSiteOf(value: string | undefined): SameSite | undefined {
  if (value === undefined || value === '') return undefined
  const lower = typeof value === 'string' ? value.toLowerCase() : ''
  if (lower === 'lax' || lower === 'strict' || lower === 'none') return lower
  throw new InvalidCookieOptionError('sameSite', `${JSON.stringify(value)} is not Lax, Strict or None`)
}

// What the `cookie` package refuses, by the option its TypeError names, in words for the message.
const COOKIE_FAULTS: Record<string, string> = {
  name: 'the cookie name is not an HTTP token',
  val: 'the cookie value holds characters a cookie cannot carry',
  maxAge: 'maxAge must be a whole number of seconds',
  expires: 'expires is not a valid date',
  path: "the path holds characters a cookie path cannot carry, such as ';'",
  domain: 'the domain is not a valid domain name',
}

function cookieFault(error: unknown): string {
  const named = /(?:argument|option|cookie) (\w+) is invalid/.exec((error as Error).message ?? '')?.[1]
  return COOKIE_FAULTS[named ?? ''] ?? 'the cookie cannot be written as a header'
}

/** Serializes a cookie with the `cookie` package; an invalid name, value or option is a 400 that names it. */
export function serializeCookie(cookie: Cookie): string {
  const sameSite = sameSiteOf(cookie.sameSite)
  try {
    return serialize(cookie.name, cookie.value, {
      path: cookie.path || undefined,
      domain: cookie.domain || undefined,
      maxAge: cookie.sessionOnly ? undefined : cookie.maxAge,
      expires: cookie.sessionOnly ? undefined : cookie.expires,
      secure: cookie.secure,
      httpOnly: cookie.httpOnly,
      sameSite,
    })
  } catch (error) {
    throw new InvalidHeaderError('Set-Cookie', cookieFault(error))
  }
}

/** Name, Path and Domain of a Set-Cookie line: what a browser tells one cookie from another by. */
function identityOf(line: string): { name: string; path: string; domain: string } {
  const parts = line.split(';')
  const pair = parts[0] as string
  const equals = pair.indexOf('=')
  const identity = { name: (equals === -1 ? pair : pair.slice(0, equals)).trim(), path: '', domain: '' }
  for (let i = 1; i < parts.length; i++) {
    const attribute = parts[i] as string
    const at = attribute.indexOf('=')
    if (at === -1) continue
    const key = attribute.slice(0, at).trim().toLowerCase()
    const value = attribute.slice(at + 1).trim()
    if (key === 'path') identity.path = value
    // RFC 6265 5.2.3: a leading dot is ignored and domains compare without case
    else if (key === 'domain') identity.domain = value.replace(/^\./, '').toLowerCase()
  }
  return identity
}

/** Takes back the Set-Cookie lines of this response that `drop` matches, keeping the others in order. */
function withdraw(c: CtxBase, drop: (line: string) => boolean): void {
  const existing = c._res.getHeader('set-cookie')
  if (existing === undefined) return
  const lines = Array.isArray(existing) ? existing.map(String) : [String(existing)]
  const kept = lines.filter((line) => !drop(line))
  if (kept.length === lines.length) return
  c._res.removeHeader('set-cookie')
  if (kept.length > 0) c._res.header('set-cookie', kept)
}

/**
 * Adds a Set-Cookie header for `cookie`, replacing one this response already carries for the same
 * cookie (same name, path and domain, as a browser and `@fastify/cookie` tell cookies apart): the
 * browser would keep only the later one, so the earlier line is dead weight.
 */
export function setCookie(c: CtxBase, cookie: Cookie): void {
  const line = serializeCookie(cookie)
  const { name, path, domain } = identityOf(line)
  withdraw(c, (earlier) => {
    // most lines name another cookie: a prefix test skips parsing them
    if (!earlier.trimStart().startsWith(name)) return false
    const other = identityOf(earlier)
    return other.name === name && other.path === path && other.domain === domain
  })
  c._res.header('set-cookie', line)
}

/**
 * The request's cookies (from `@fastify/cookie` when registered, else parsed from the header as
 * `bind().cookie()` parses it, so that the two never disagree).
 */
export function requestCookies(c: CtxBase): Record<string, string | undefined> {
  const parsed = (c._req as { cookies?: Record<string, string | undefined> }).cookies
  if (parsed !== undefined) return parsed
  return parseCookieHeader(c._req.headers.cookie) as Record<string, string>
}

/**
 * Expires the named cookies (all request cookies when none named), with `options` as set. As in
 * Fiber, clearing a name withdraws every cookie of that name this response was about to set
 * (whatever its path or domain): one Set-Cookie per cleared name, the expiring one. Pending lines
 * are scanned once for all names, so clearing a request's many cookies costs linear time.
 */
export function clearCookies(c: CtxBase, keys: string[], options: ClearCookieOptions = {}): void {
  const names = new Set(keys.length > 0 ? keys : Object.keys(requestCookies(c)))
  // a Max-Age or a later Expires from the set-time options would keep the cookie alive
  const { maxAge: _maxAge, expires: _expires, sessionOnly: _sessionOnly, ...identity } = options
  const lines: string[] = []
  // serialised first: an invalid name is refused before anything is withdrawn
  for (const name of names) lines.push(serializeCookie({ ...identity, name, value: '', expires: new Date(0) }))
  withdraw(c, (earlier) => names.has(identityOf(earlier).name))
  for (const line of lines) c._res.header('set-cookie', line)
}
