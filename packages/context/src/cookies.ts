import { parseCookieHeader } from '@weft/binding'
import { serialize } from 'cookie'
import type { CtxBase } from './ctx-base.js'
import { InvalidHeaderError } from './errors.js'

/**
 * A response cookie (seed: Cookie). JSON names of the seed: `max_age`, `http_only`,
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
  /** `'Lax'`, `'Strict'` or `'None'` (any case). */
  sameSite?: string
  /** A session cookie: `maxAge` and `expires` are ignored. */
  sessionOnly?: boolean
}

/**
 * Options that identify a cookie to clear: the ones it was set with (`maxAge`, `expires` and
 * `sessionOnly` may be passed along and are ignored, so the cookie really expires).
 */
export type ClearCookieOptions = Partial<Omit<Cookie, 'name' | 'value'>>

type SameSite = 'lax' | 'strict' | 'none'

function sameSiteOf(value: string | undefined): SameSite | undefined {
  const lower = value?.toLowerCase()
  return lower === 'lax' || lower === 'strict' || lower === 'none' ? lower : undefined
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
  try {
    return serialize(cookie.name, cookie.value, {
      path: cookie.path || undefined,
      domain: cookie.domain || undefined,
      maxAge: cookie.sessionOnly ? undefined : cookie.maxAge,
      expires: cookie.sessionOnly ? undefined : cookie.expires,
      secure: cookie.secure,
      httpOnly: cookie.httpOnly,
      sameSite: sameSiteOf(cookie.sameSite),
    })
  } catch (error) {
    throw new InvalidHeaderError('Set-Cookie', cookieFault(error))
  }
}

/** Appends a Set-Cookie header for `cookie`. */
export function setCookie(c: CtxBase, cookie: Cookie): void {
  c._res.header('set-cookie', serializeCookie(cookie))
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

/** Expires the named cookies (all request cookies when none named), with `options` as set. */
export function clearCookies(c: CtxBase, keys: string[], options: ClearCookieOptions = {}): void {
  const names = keys.length > 0 ? keys : Object.keys(requestCookies(c))
  // a Max-Age or a later Expires from the set-time options would keep the cookie alive
  const { maxAge: _maxAge, expires: _expires, sessionOnly: _sessionOnly, ...identity } = options
  for (const name of names) {
    setCookie(c, { ...identity, name, value: '', expires: new Date(0) })
  }
}
