import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RawMap } from './map-types.js'

/**
 * A request map as `decodeMap` reads it. Fastify's own parsers give flat maps of strings and
 * string lists; a custom `querystringParser` (such as `qs`) may give nested objects, which are
 * flattened back into bracket keys so one set of rules applies.
 */
export function toRawMap(value: unknown): RawMap {
  if (typeof value !== 'object' || value === null) return {}
  const map = value as Record<string, unknown>
  for (const key in map) {
    const v = map[key]
    if (typeof v !== 'string' && !isStringList(v)) return flatten(map)
  }
  return map as RawMap
}

export function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false
  for (const item of value) if (typeof item !== 'string') return false
  return true
}

function flatten(map: Record<string, unknown>): RawMap {
  const out: Record<string, string[]> = Object.create(null)
  const add = (key: string, value: unknown, depth: number): void => {
    if (depth > 32) return
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        add(typeof item === 'object' && item !== null ? `${key}[${i}]` : key, item, depth + 1)
      })
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v, depth + 1)
    } else if (value !== undefined) {
      out[key] ??= []
      out[key].push(String(value))
    }
  }
  for (const [key, value] of Object.entries(map)) add(key, value, 0)
  return out
}

/**
 * The query string's map as Fastify parsed it. Not flattened here: `decodeMap` does that itself
 * when a custom parser gave nested values, which saves a pass over every query of every request.
 */
export function queryMap(request: FastifyRequest): RawMap {
  const query = request.query
  return typeof query === 'object' && query !== null ? (query as RawMap) : {}
}

/** The path parameters. */
export function paramsMap(request: FastifyRequest): RawMap {
  return toRawMap(request.params)
}

/** Request headers; a header sent twice keeps both values (Node would join them with ", "). */
export function headerMap(request: FastifyRequest): RawMap {
  const distinct = (request.raw as { headersDistinct?: RawMap }).headersDistinct
  return distinct ?? toRawMap(request.headers)
}

/** Cookies: `request.cookies` when `@fastify/cookie` is registered, else the Cookie header. */
export function cookieMap(request: FastifyRequest): RawMap {
  const parsed = (request as { cookies?: unknown }).cookies
  if (typeof parsed === 'object' && parsed !== null) return toRawMap(parsed)
  return parseCookieHeader(request.headers.cookie)
}

/**
 * Reads a Cookie header (`a=1; b=2`, RFC 6265 pairs): the first of a repeated name wins, a value in
 * double quotes loses them (as Fiber and Express read it), percent-escapes are decoded and
 * malformed ones kept as they are. `c.cookies()` of @weft/context reads cookies with it too.
 */
export function parseCookieHeader(header: string | undefined): RawMap {
  const out: Record<string, string> = Object.create(null)
  if (header === undefined || header === '') return out
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=')
    if (eq === -1) continue
    const name = pair.slice(0, eq).trim()
    if (name === '' || name in out) continue
    let value = pair.slice(eq + 1).trim()
    if (value.length > 1 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    out[name] = safeDecode(value)
  }
  return out
}

function safeDecode(value: string): string {
  if (value.indexOf('%') === -1) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/** Headers already set on the reply. */
export function respHeaderMap(reply: FastifyReply): RawMap {
  const out: Record<string, string | string[]> = Object.create(null)
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value === undefined) continue
    out[name] = Array.isArray(value) ? value.map(String) : String(value)
  }
  return out
}
