import * as body from './body.js'
import { requestCookies } from './cookies.js'
import { CtxBase, type RouteInfo, routingOf } from './ctx-base.js'
import { negotiate } from './negotiation/accepts.js'
import { acceptCharsetOf, acceptEncodingOf, acceptLanguageOf, acceptOf } from './negotiation/cache.js'
import * as params from './params.js'
import * as q from './query.js'
import { type Range, range } from './range.js'
import * as info from './request-info.js'
import { originForm } from './target.js'

const PARAM_NAME = /:([A-Za-z0-9_$]+)|\*/g

/** `Ctx` operations that read the request (content negotiation and request reading). */
export class RequestCtx extends CtxBase {
  /** The offer the Accept header prefers (types or extensions, returned as given); `''` when none is acceptable. */
  accepts(...offers: string[]): string {
    return negotiate('media', acceptOf(this), offers)
  }

  /** The charset Accept-Charset prefers; `''` when none is acceptable. */
  acceptsCharsets(...offers: string[]): string {
    return negotiate('charset', acceptCharsetOf(this), offers)
  }

  /** The coding Accept-Encoding prefers; `''` when none is acceptable. */
  acceptsEncodings(...offers: string[]): string {
    return negotiate('encoding', acceptEncodingOf(this), offers)
  }

  /** The language Accept-Language prefers (RFC 4647 basic filtering); `''` when none is acceptable. */
  acceptsLanguages(...offers: string[]): string {
    return negotiate('language', acceptLanguageOf(this), offers)
  }

  /** All route parameters; the wildcard also as `*1`. */
  allParams(): Record<string, string> {
    return params.allParams(this)
  }

  /** A route parameter (`*`/`*1` for the wildcard), else `def` (`''`). */
  params(key: string, def?: string): string {
    return params.param(this, key, def)
  }

  /** A route parameter as an integer: 0 when missing; throws a 400 `WEFT_INVALID_PARAM` for non-integers. */
  paramsInt(key: string): number {
    return params.paramInt(this, key)
  }

  /** The request body, decoded per Content-Encoding (gzip, deflate, br). */
  body(): Buffer {
    return body.body(this)
  }

  /** The request body as received. */
  bodyRaw(): Buffer {
    return body.bodyRaw(this)
  }

  /** A request cookie, else `def` (`''`). */
  cookies(key: string, def = ''): string {
    return requestCookies(this)[key] ?? def
  }

  /** A request header (case-insensitive), else `def` (`''`). */
  get(key: string, def?: string): string {
    return info.getHeader(this, key, def)
  }

  /** All request headers with every value. */
  getReqHeaders(): Record<string, string[]> {
    return info.reqHeaders(this)
  }

  /** The first value of a query parameter, else `def` (`''`). */
  query(key: string, def?: string): string {
    return q.query(this, key, def)
  }

  /** All query parameters (repeated key: last value; keys verbatim). */
  queries(): Record<string, string> {
    return q.queries(this)
  }

  /** A query parameter as a boolean (`true/false/1/0/t/f`), else `def` (false). */
  queryBool(key: string, def?: boolean): boolean {
    return q.queryBool(this, key, def)
  }

  /** A query parameter as a float, else `def` (0). */
  queryFloat(key: string, def?: number): number {
    return q.queryFloat(this, key, def)
  }

  /** A query parameter as an integer, else `def` (0). */
  queryInt(key: string, def?: number): number {
    return q.queryInt(this, key, def)
  }

  /** Parses the Range header for a resource of `size` bytes (400 malformed, 416 unsatisfiable). */
  range(size: number): Range {
    return range(this, size)
  }

  /** Host name without port (first X-Forwarded-Host entry behind a trusted proxy); IPv6 keeps its brackets. */
  hostname(): string {
    return info.hostname(this)
  }

  /** The client address: the whole `proxyHeader` value when configured (and the peer is trusted, if `trustProxy` is set). */
  ip(): string {
    return info.ip(this)
  }

  /** Addresses of X-Forwarded-For, split as Fiber splits them. */
  ips(): string[] {
    return info.ips(this)
  }

  /** True when the request came from a loopback address. */
  isFromLocal(): boolean {
    return info.isFromLocal(this)
  }

  /** True when the request body's Content-Type is the type of `ext`. */
  is(ext: string): boolean {
    return info.is(this, ext)
  }

  /** The request method; with an argument, overrides it for this context (and `restartRouting`). */
  method(override?: string): string {
    if (override !== undefined) routingOf(this).method = override.toUpperCase()
    return this._routing?.method ?? this._req.method
  }

  /** The request path; with an argument, overrides it for this context (and `restartRouting`). */
  path(override?: string): string {
    if (override !== undefined) routingOf(this).path = override
    const overridden = this._routing?.path
    if (overridden !== undefined) return overridden
    const url = originForm(this._req.url)
    const mark = url.indexOf('?')
    return mark === -1 ? url : url.slice(0, mark)
  }

  /**
   * The original URL as received, as path and query: for an absolute-form request line
   * (`GET http://evil.example/a?b=1 HTTP/1.1`) the client's scheme and host are dropped (`/a?b=1`).
   */
  originalURL(): string {
    return originForm(this._req.originalUrl)
  }

  /** Protocol and host (`https://example.com:8443`). */
  baseURL(): string {
    return `${info.protocol(this)}://${info.host(this)}`
  }

  /** `'http'` or `'https'` (TLS, or the scheme headers Fiber reads from a trusted proxy). */
  protocol(): 'http' | 'https' {
    return info.protocol(this)
  }

  /** True over HTTPS. */
  secure(): boolean {
    return info.protocol(this) === 'https'
  }

  /** Subdomain labels, leaving out `offset` (plugin option `subdomainOffset`, 2) labels on the right. */
  subdomains(offset?: number): string[] {
    return info.subdomains(this, offset ?? this._opts.subdomainOffset)
  }

  /** True for `X-Requested-With: XMLHttpRequest`. */
  xhr(): boolean {
    return info.xhr(this)
  }

  /** True when the client's cached copy is still fresh. */
  fresh(): boolean {
    return info.isFresh(this)
  }

  /** The inverse of `fresh()`. */
  stale(): boolean {
    return !info.isFresh(this)
  }

  /** TLS client-hello data; `undefined` over plain HTTP. */
  clientHelloInfo(): info.ClientHelloInfo | undefined {
    return info.clientHelloInfo(this)
  }

  /** The matched route (after `restartRouting()`, the route it found). */
  route(): RouteInfo {
    const matched = this._routing?.route
    const options = this._req.routeOptions
    const path = matched?.url ?? options.url ?? this.path()
    const handlers = this._chain ?? matched?.chain ?? [matched?.handler ?? options.handler]
    return {
      method: matched?.method ?? options.method,
      path,
      params: [...path.matchAll(PARAM_NAME)].map((m) => m[1] ?? '*'),
      handlers,
    }
  }
}
