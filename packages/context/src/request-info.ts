import { isIP } from 'node:net'
import type { TLSSocket } from 'node:tls'
import fresh from 'fresh'
import { lookup } from 'mime-types'
import type { CtxBase } from './ctx-base.js'

/** Host name without port or trailing dot, lower-cased (honours X-Forwarded-Host when trusted). */
export function hostname(c: CtxBase): string {
  let host = c._req.hostname ?? ''
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']')).toLowerCase()
  if (host.endsWith('.')) host = host.slice(0, -1)
  return host.toLowerCase()
}

/** The client address: the `proxyHeader` value when configured and present, else the peer. */
export function ip(c: CtxBase): string {
  const header = c._opts.proxyHeader
  if (header !== undefined) {
    const value = c._req.headers[header]
    const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim()
    if (first) return first
  }
  return c._req.ip
}

/** Addresses listed in X-Forwarded-For, client first (a header clients can forge). */
export function ips(c: CtxBase): string[] {
  const value = c._req.headers['x-forwarded-for']
  if (value === undefined) return []
  const joined = Array.isArray(value) ? value.join(',') : value
  return joined
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

const LOOPBACK = /^(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/

/** True when the peer address is a loopback address. */
export function isFromLocal(c: CtxBase): boolean {
  return LOOPBACK.test(c._req.raw.socket?.remoteAddress ?? '')
}

/** `'https'` or `'http'` (X-Forwarded-Proto counts only when Fastify's `trustProxy` trusts the peer). */
export function protocol(c: CtxBase): 'http' | 'https' {
  return c._req.protocol === 'https' ? 'https' : 'http'
}

/** Labels of the host left of the `offset` rightmost ones; `[]` for IP hosts. */
export function subdomains(c: CtxBase, offset: number): string[] {
  const host = hostname(c)
  if (host === '' || isIP(host) !== 0) return []
  const labels = host.split('.')
  return labels.slice(0, Math.max(labels.length - offset, 0))
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
  const wanted = ext.includes('/') ? ext.toLowerCase() : lookup(ext.startsWith('.') ? ext.slice(1) : ext)
  if (wanted === false) return false
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
  return fresh(c._req.headers, {
    etag: res.getHeader('etag') as string | undefined,
    'last-modified': res.getHeader('last-modified') as string | undefined,
  })
}

/** TLS details of the connection (seed: ClientHelloInfo); `undefined` over plain HTTP. */
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
