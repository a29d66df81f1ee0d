import { Buffer } from 'node:buffer'
import type { Readable } from 'node:stream'
import { format as formatString } from 'node:util'
import { setAttachment, setType } from './content-type.js'
import { type ClearCookieOptions, type Cookie, clearCookies, setCookie } from './cookies.js'
import { RequestCtx } from './ctx-request.js'
import { NoViewsError } from './errors.js'
import { addVary, appendHeader, respHeader, respHeaders, setHeader, setLinks } from './headers.js'
import { JSON_TYPE, JsonBody } from './json-body.js'
import { encodeLocation } from './location.js'
import { redirect, sameOriginReferer } from './redirect.js'
import { type RouteURLParams, routeURL } from './routes.js'
import { decodePath, sendFile } from './send-file.js'
import { htmlParagraph, jsonpCall, toXML } from './serializers.js'
import { checkStatus, statusForbidsBody, statusText } from './status.js'
import { kNoContent } from './symbols.js'

// the JSON inside a JSONP or HTML body is serialized by a response schema keyed for JSON
const JSON_MEDIA = 'application/json'
const FORMAT_OFFERS = ['text/plain', 'text/html', 'application/json']

/** `Ctx` operations that write the response (response writing). Nothing is sent before the chain ends. */
export class ResponseCtx extends RequestCtx {
  /** Sets the status code (an integer from 100 to 599; anything else is a 500 `WEFT_INVALID_STATUS`). */
  status(code: number): this {
    this._res.code(checkStatus(code))
    return this
  }

  /**
   * Sets the status; when no body was set, the body becomes its reason phrase. A code without one
   * (299) and 1xx, 204, 205 and 304 are sent with no content at all: no body, no Content-Length.
   */
  sendStatus(code: number): this {
    this._res.code(checkStatus(code))
    if (statusForbidsBody(code)) return this.setBody('')
    if (this._body === undefined && this._chunks === undefined) this._body = statusText(code) || kNoContent
    return this
  }

  /** Sets a response header (CR/LF and other control characters are refused with a 400). */
  set(key: string, value: string): this {
    setHeader(this, key, value)
    return this
  }

  /** Appends values to a response header, never duplicating one. */
  append(field: string, ...values: string[]): this {
    appendHeader(this, field, values)
    return this
  }

  /** Adds fields to Vary without duplicates. */
  vary(...fields: string[]): this {
    addVary(this, fields)
    return this
  }

  /** Sets the Link header to `<url>; rel="rel"` entries: `links(url1, rel1, url2, rel2, ...)` (a later call replaces it). */
  links(...urlRelPairs: string[]): this {
    setLinks(this, urlRelPairs)
    return this
  }

  /** Sets Location (non-URL characters percent-encoded, CR/LF refused). */
  location(path: string): this {
    this._res.header('location', encodeLocation(path))
    return this
  }

  /** Sets Content-Type from an extension; `charset` overrides the default `utf-8` of text types. */
  type(ext: string, charset?: string): this {
    setType(this, ext, charset)
    return this
  }

  /** Sets `Content-Disposition: attachment`, with the base name of `filename` and its Content-Type. */
  attachment(filename?: string): this {
    setAttachment(this, filename)
    return this
  }

  /** Adds a Set-Cookie header. */
  cookie(cookie: Cookie): this {
    setCookie(this, cookie)
    return this
  }

  /**
   * Expires the named cookies (every request cookie when none is named). Pass the path/domain
   * the cookie was set with as a last object argument: `clearCookie('sid', { path: '/app' })`.
   */
  clearCookie(...keys: (string | ClearCookieOptions)[]): this {
    const last = keys[keys.length - 1]
    const options = typeof last === 'object' ? last : undefined
    clearCookies(
      this,
      keys.filter((k): k is string => typeof k === 'string'),
      options,
    )
    return this
  }

  /**
   * Sends `data` as JSON (Content-Type `ctype`, default `application/json; charset=utf-8`). On a
   * route with a response schema for the status sent (`schema.response`: the code, `2xx`,
   * `default`), Fastify's serializer of that schema writes it, as for a returned object: fields
   * the schema does not list are not sent. Serialized when the chain ends, with the status then set.
   */
  json(data: unknown, ctype?: string): this {
    this._res.type(ctype ?? JSON_TYPE)
    return this.setBody(new JsonBody(data))
  }

  /**
   * Sends `data` as JSONP, called through `callback` (sanitised; default `callback`). The JSON is
   * the route's response schema's for the status sent, as with `json()`.
   */
  jsonp(data: unknown, callback?: string): this {
    this._res.type('text/javascript; charset=utf-8')
    this._res.header('x-content-type-options', 'nosniff')
    return this.setBody(new JsonBody(data, JSON_MEDIA, (json) => jsonpCall(json, callback)))
  }

  /** Sends `data` as XML (`application/xml; charset=utf-8`). */
  xml(data: unknown): this {
    this._res.type('application/xml; charset=utf-8')
    return this.setBody(toXML(data))
  }

  /** Sets the body to bytes (a string is sent as its UTF-8 bytes; `undefined` as none). */
  send(bytes: Uint8Array | string): this
  /** Sends any other value as JSON, as `json()` does (keeping a Content-Type set already). */
  send(data: unknown): this
  send(body: unknown): this {
    if (Buffer.isBuffer(body)) return this.setBody(body)
    if (body === undefined) return this.setBody(Buffer.alloc(0))
    if (typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer) {
      return this.setBody(Buffer.from(body as Uint8Array))
    }
    const ctype = this._res.getHeader('content-type')
    return this.json(body, typeof ctype === 'string' ? ctype : undefined)
  }

  /** Sets the body to a string. */
  sendString(text: string): this {
    return this.setBody(text)
  }

  /** Sets the body to a stream; `size` sets Content-Length. */
  sendStream(stream: Readable, size?: number): this {
    if (size !== undefined && size >= 0) this._res.header('content-length', String(size))
    return this.setBody(stream)
  }

  /** Sends a file under the `root` option (path URL-encoded); gzip only when `compress` is true. */
  async sendFile(path: string, compress?: boolean): Promise<void> {
    this._chunks = undefined
    await sendFile(this, path, compress)
  }

  /** Sends a file as an attachment named `filename` (default: the path's base name). */
  async download(path: string, filename?: string): Promise<void> {
    const name = filename ?? decodePath(path)
    await this.sendFile(path)
    // set once the file is found, so an error response is never offered as a download
    setAttachment(this, name)
  }

  /** Redirects to `location` (302 by default). */
  redirect(location: string, status?: number): this {
    redirect(this, location, status)
    return this
  }

  /** Redirects to the route named `name` (`params.queries` adds a query string). */
  redirectToRoute(name: string, params: RouteURLParams = {}, status?: number): this {
    redirect(this, routeURL(this._req.server, name, params), status)
    return this
  }

  /** Redirects to the Referer when it is same-origin, else to `fallback`. */
  redirectBack(fallback: string, status?: number): this {
    redirect(this, sameOriginReferer(this) ?? fallback, status)
    return this
  }

  /** The relative URL of the route named `name`, parameters filled and URL-encoded. */
  getRouteURL(name: string, params: RouteURLParams = {}): string {
    return routeURL(this._req.server, name, params)
  }

  /** Renders a view with the `views` engine (variables of `bind(vars)` merged under `vars`) as HTML. */
  async render(name: string, vars: Record<string, unknown> = {}, ...layouts: string[]): Promise<void> {
    const engine = this._opts.views
    if (engine === undefined) throw new NoViewsError()
    const html = await engine.render(name, { ...this._viewVars, ...vars }, layouts)
    this._res.type('text/html; charset=utf-8')
    this.setBody(html)
  }

  /** A response header (case-insensitive), else `def` (`''`). */
  getRespHeader(key: string, def?: string): string {
    return respHeader(this, key, def)
  }

  /** All response headers set so far. */
  getRespHeaders(): Record<string, string[]> {
    return respHeaders(this)
  }

  /** Appends bytes to the body; returns the number of bytes written. */
  write(bytes: Uint8Array): number {
    return this.appendChunk(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes))
  }

  /** Appends `util.format(format, ...args)` to the body; returns the number of bytes written. */
  writef(format: string, ...args: unknown[]): number {
    return this.appendChunk(Buffer.from(formatString(format, ...args)))
  }

  /** Appends a string to the body; returns the number of bytes written. */
  writeString(text: string): number {
    return this.appendChunk(Buffer.from(text))
  }

  /**
   * Negotiates on Accept between text/plain (also when the header is absent or nothing matches),
   * text/html (`<p>` + escaped text + `</p>`) and JSON, and adds `Vary: Accept`. A body that is
   * not a string is written as JSON in each form, through the route's response schema as `json()`.
   */
  format(body: unknown): this {
    addVary(this, ['Accept'])
    const chosen = this.accepts(...FORMAT_OFFERS) || 'text/plain'
    if (chosen === 'application/json') return this.json(body)
    if (chosen === 'text/html') {
      this._res.type('text/html; charset=utf-8')
      if (typeof body === 'string') return this.setBody(htmlParagraph(body))
      return this.setBody(new JsonBody(body, JSON_MEDIA, htmlParagraph))
    }
    this._res.type('text/plain; charset=utf-8')
    if (typeof body === 'string') return this.setBody(body)
    if (Buffer.isBuffer(body)) return this.setBody(body.toString())
    return this.setBody(new JsonBody(body, JSON_MEDIA))
  }

  /** @internal replaces the buffered body */
  protected setBody(body: unknown): this {
    this._body = body
    this._chunks = undefined
    return this
  }

  /** @internal appends to the buffered body */
  protected appendChunk(chunk: Buffer): number {
    if (this._chunks === undefined) {
      const current = this._body
      this._chunks = []
      if (typeof current === 'string') this._chunks.push(Buffer.from(current))
      else if (Buffer.isBuffer(current)) this._chunks.push(current)
      else if (current instanceof JsonBody) this._chunks.push(Buffer.from(current.text(this._res)))
      this._body = undefined
    }
    this._chunks.push(chunk)
    return chunk.length
  }
}
