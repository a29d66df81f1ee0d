import { isIP } from 'node:net'
import type { TLSSocket } from 'node:tls'
import fresh from 'fresh'
import { mimeOf } from './content-type.js'
import type { CtxBase } from './ctx-base.js'
import { decodeHostName } from './idn.js'
import { NO_TRUST } from './proxy-trust.js'

type HeaderValue = string | string[] | undefined

/** The first non-empty entry of a comma-separated header, trimmed (Fiber reads the first proxy entry). */
function firstEntry(value: HeaderValue): string {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '')
  for (const entry of joined.split(',')) {
    const trimmed = entry.trim()
    if (trimmed !== '') return trimmed
  }
  return ''
}

/**
 * Whether the peer is a trusted proxy: `true`/`false` by the app's `trustProxy`, `undefined`
 * when `trustProxy` is not set (`'none'`) or not known (the plugin is not registered).
 */
function peerTrust(c: CtxBase): boolean | undefined {
  const trust = c._opts.trust
  if (trust === undefined || trust === NO_TRUST) return undefined
  return trust(c._req.raw.socket?.remoteAddress ?? '', 0)
}

/**
 * Host and port: the first non-empty X-Forwarded-Host entry when a trusted proxy sent it
 * (Fastify's `request.host` takes the last one), else the Host header.
 */
export function host(c: CtxBase): string {
  if (c._opts.trust === undefined) return c._req.host ?? ''
  if (peerTrust(c) === true) {
    const forwarded = firstEntry(c._req.headers['x-forwarded-host'])
    if (forwarded !== '') return forwarded
  }
  const headers = c._req.headers
  return headers.host ?? (headers[':authority'] as string | undefined) ?? ''
}

/**
 * Host name without port or trailing dot, lower-cased; IPv6 literals keep their brackets
 * (`[::1]`, `[fe80::1%lo0]`), as in Fiber.
 */
export function hostname(c: CtxBase): string {
  let name = host(c)
  if (name.startsWith('[')) {
    const end = name.indexOf(']')
    return (end === -1 ? name : name.slice(0, end + 1)).toLowerCase()
  }
  const colon = name.indexOf(':')
  // one colon separates the port; more make it an IPv6 address sent without brackets
  if (colon !== -1 && name.indexOf(':', colon + 1) === -1) name = name.slice(0, colon)
  if (name.endsWith('.')) name = name.slice(0, -1)
  return name.toLowerCase()
}

/**
 * The client address. With `proxyHeader`, that header's whole value as sent (even empty, as
 * Fiber returns it), unless the app's `trustProxy` is set and does not trust the peer; the
 * peer address when the header is absent.
 */
export function ip(c: CtxBase): string {
  const header = c._opts.proxyHeader
  if (header !== undefined && peerTrust(c) !== false) {
    const value = c._req.headers[header]
    if (value !== undefined) return Array.isArray(value) ? value.join(', ') : value
  }
  return c._req.ip
}

/**
 * Addresses listed in X-Forwarded-For, client first (a header clients can forge), split as
 * Fiber splits it: entries are trimmed of spaces, and an entry left empty after the spaces
 * (`a, ,b`) is kept as `''`, while a doubled comma (`a,,b`) is skipped.
 */
export function ips(c: CtxBase): string[] {
  const value = c._req.headers['x-forwarded-for']
  if (value === undefined) return []
  const list = Array.isArray(value) ? value.join(', ') : value
  const out: string[] = []
  let end = -1
  for (;;) {
    let start = end + 1
    end += 2
    if (end > list.length) break
    while (end < list.length && list.charCodeAt(end) !== 44) end++
    while (start < end && (list.charCodeAt(start) === 32 || list.charCodeAt(start) === 44)) start++
    // trailing spaces by hand: / +$/ retries at every space of a long run (quadratic)
    let last = end
    while (last > start && list.charCodeAt(last - 1) === 32) last--
    out.push(list.slice(start, last))
  }
  return out
}

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/

/** True when the peer address is a loopback address. */
export function isFromLocal(c: CtxBase): boolean {
  return LOOPBACK.test(c._req.raw.socket?.remoteAddress ?? '')
}

/** `http` or `https` (trimmed, any case) as announced by a proxy; `undefined` for anything else. */
function forwardedScheme(value: string): 'http' | 'https' | undefined {
  const scheme = value.trim().toLowerCase()
  return scheme === 'https' || scheme === 'http' ? scheme : undefined
}

/**
 * `'https'` over TLS; behind a trusted proxy, what X-Forwarded-Proto / X-Forwarded-Protocol
 * (first non-empty entry), X-Forwarded-Ssl (`on`) or X-Url-Scheme say, the last of them in
 * header order winning (the headers and order Fiber reads); a value other than `http`/`https`
 * is ignored and does not override an earlier valid one, as in Fiber; else `'http'`.
 */
export function protocol(c: CtxBase): 'http' | 'https' {
  if ((c._req.raw.socket as TLSSocket | undefined)?.encrypted === true) return 'https'
  if (c._opts.trust === undefined) return c._req.protocol === 'https' ? 'https' : 'http'
  if (peerTrust(c) !== true) return 'http'
  let scheme: 'http' | 'https' = 'http'
  const raw = c._req.raw.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    const value = raw[i + 1] as string
    if (name === 'x-forwarded-proto' || name === 'x-forwarded-protocol')
      scheme = forwardedScheme(firstEntry(value)) ?? scheme
    else if (name === 'x-forwarded-ssl') scheme = value.trim().toLowerCase() === 'on' ? 'https' : scheme
    else if (name === 'x-url-scheme') scheme = forwardedScheme(value) ?? scheme
  }
  return scheme
}

/**
 * Labels of the host left of the `offset` rightmost ones (Fiber's rules): a negative offset or
 * one that leaves nothing gives `[]`, 0 gives every label; IP hosts give `[]`; IDN labels are
 * returned in Unicode.
 */
export function subdomains(c: CtxBase, offset: number): string[] {
  if (!(offset >= 0)) return []
  let name = hostname(c)
  if (name === '' || name.startsWith('[') || isIP(name) !== 0) return []
  name = decodeHostName(name)
  const labels = name.split('.')
  const keep = labels.length - Math.trunc(offset)
  if (offset === 0) return labels
  return keep > 0 ? labels.slice(0, keep) : []
}

/** True when X-Requested-With is XMLHttpRequest (any case). */
export function xhr(c: CtxBase): boolean {
  const value = c._req.headers['x-requested-with']
  return typeof value === 'string' && value.toLowerCase() === 'xmlhttprequest'
}

function hasBody(c: CtxBase): boolean {
  const h = c._req.headers
  return h['transfer-encoding'] !== undefined || (h['content-length'] !== undefined && h['content-length'] !== '0')
}

/** True when the request has a body whose Content-Type is the type of `ext` (`json`, `.html`, `text/*`). */
export function is(c: CtxBase, ext: string): boolean {
  if (!hasBody(c)) return false
  const contentType = c._req.headers['content-type']
  if (contentType === undefined) return false
  const actual = (contentType.split(';')[0] ?? '').trim().toLowerCase()
  // an unknown extension stands for application/octet-stream, as in Fiber
  const wanted = ext.includes('/') ? ext.trim().toLowerCase() : ext === '' ? '' : mimeOf(ext)
  if (wanted === '') return false
  if (wanted.endsWith('/*')) return actual.startsWith(wanted.slice(0, -1))
  return actual === wanted
}

/** A request header (case-insensitive), several values joined with `, `; `def` when absent. */
export function getHeader(c: CtxBase, key: string, def = ''): string {
  const value = c._req.headers[key.toLowerCase()]
  if (value === undefined) return def
  return Array.isArray(value) ? value.join(', ') : value
}

/** All request headers, lower-case names, every value in arrival order. */
export function reqHeaders(c: CtxBase): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const raw = c._req.raw.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase()
    const list = out[name]
    if (list === undefined) out[name] = [raw[i + 1] as string]
    else list.push(raw[i + 1] as string)
  }
  return out
}

/**
 * True when the client's cached copy is fresh: GET/HEAD only, 2xx/304 responses only,
 * `Cache-Control: no-cache` never; ETag (weak comparison) takes precedence over Last-Modified
 * (rules of the `fresh` package).
 */
export function isFresh(c: CtxBase): boolean {
  const method = c._req.method
  if (method !== 'GET' && method !== 'HEAD') return false
  const status = c._res.statusCode
  if ((status < 200 || status >= 300) && status !== 304) return false
  const res = c._res
  // Cache-Control directives are case-insensitive (`NO-CACHE`); the fresh package only knows lower case
  const cacheControl = c._req.headers['cache-control']
  const headers =
    cacheControl === undefined ? c._req.headers : { ...c._req.headers, 'cache-control': cacheControl.toLowerCase() }
  return fresh(headers, {
    etag: res.getHeader('etag') as string | undefined,
    'last-modified': res.getHeader('last-modified') as string | undefined,
  })
}

/** TLS details of the connection (Fiber: ClientHelloInfo); `undefined` over plain HTTP. */
export interface ClientHelloInfo {
  /** SNI server name the client asked for. */
  serverName: string | undefined
  /** Negotiated ALPN protocol. */
  alpnProtocol: string | false | null | undefined
  /** Negotiated TLS protocol version (`TLSv1.3`). */
  protocol: string | null
  /** Negotiated cipher name. */
  cipher: string | undefined
}

/** TLS client-hello data of an HTTPS connection. */
export function clientHelloInfo(c: CtxBase): ClientHelloInfo | undefined {
  const socket = c._req.raw.socket as TLSSocket | undefined
  if (socket === undefined || socket.encrypted !== true) return undefined
  const servername = (socket as TLSSocket & { servername?: string | false }).servername
  return {
    serverName: typeof servername === 'string' ? servername : undefined,
    alpnProtocol: socket.alpnProtocol,
    protocol: socket.getProtocol(),
    cipher: socket.getCipher()?.name,
  }
}
