import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ReceivedBody } from './body.js'
import { closeLocals } from './locals.js'
import type { ParsedAccept } from './negotiation/accept-header.js'
import type { ResolvedOptions } from './options.js'
import type { RouteEntry } from './routes.js'

/** A function of a `handle()` chain. Its return value is sent as Fastify would send it. */
export type CtxHandler<C = never> = (c: C) => unknown

/** The matched route, as `c.route()` describes it. */
export interface RouteInfo {
  /** HTTP method(s) of the route. */
  method: string | string[]
  /** Route pattern (`/users/:id`). */
  path: string
  /** Names of the route's parameters, in order. */
  params: string[]
  /** The `handle()` chain of the route (or its single Fastify handler). */
  handlers: readonly unknown[]
}

/**
 * Request-scoped state of a `Ctx`. Every field is created in the constructor (stable object
 * shape) and filled lazily, so a `Ctx` that is only created costs one small allocation.
 * Fields starting with `_` are internal.
 */
export class CtxBase {
  // Declared here and assigned in the constructor: plain assignments build the object faster
  // than class field initialisers, and a `Ctx` is built on every request that uses one.
  /** @internal */ declare readonly _req: FastifyRequest
  /** @internal */ declare _res: FastifyReply
  /** @internal */ declare readonly _opts: ResolvedOptions
  /** @internal the running chain and position of `next()` */
  declare _chain: readonly CtxHandler<never>[] | undefined
  /** @internal */ declare _index: number
  /** @internal buffered body; `undefined` = none set */
  declare _body: unknown
  /** @internal chunks appended by `write*` */
  declare _chunks: Buffer[] | undefined
  /** @internal parsed Accept, Accept-Charset, Accept-Encoding, Accept-Language (`null` = not parsed yet) */
  declare _accept: ParsedAccept | undefined | null
  /** @internal */ declare _acceptCharset: ParsedAccept | undefined | null
  /** @internal */ declare _acceptEncoding: ParsedAccept | undefined | null
  /** @internal */ declare _acceptLanguage: ParsedAccept | undefined | null
  /** @internal parsed query string */
  declare _query: URLSearchParams | undefined
  /** @internal */ declare _locals: Map<string, unknown> | undefined
  /** @internal */ declare _userContext: object | undefined
  /** @internal view variables merged by `bind(vars)` */
  declare _viewVars: Record<string, unknown> | undefined
  /** @internal */ declare _path: string | undefined
  /** @internal */ declare _method: string | undefined
  /** @internal */ declare _restarts: number
  /** @internal route matched by `restartRouting()` */
  declare _route: RouteEntry | undefined
  /** @internal a body no binding parser keeps, kept by the plugin's hook as it arrives */
  declare _received: ReceivedBody | undefined

  constructor(request: FastifyRequest, reply: FastifyReply, options: ResolvedOptions) {
    this._req = request
    this._res = reply
    this._opts = options
    this._chain = undefined
    this._index = 0
    this._body = undefined
    this._chunks = undefined
    this._accept = null
    this._acceptCharset = null
    this._acceptEncoding = null
    this._acceptLanguage = null
    this._query = undefined
    this._locals = undefined
    this._userContext = undefined
    this._viewVars = undefined
    this._path = undefined
    this._method = undefined
    this._restarts = 0
    this._route = undefined
    this._received = undefined
  }

  /** The Fastify request (seed: `Request()`). */
  request(): FastifyRequest {
    return this._req
  }

  /** The Fastify reply (seed: `Response()`). */
  response(): FastifyReply {
    return this._res
  }

  /** The raw Node request and response (seed: `Context()`, the server's request context). */
  context(): { req: IncomingMessage; res: ServerResponse } {
    return { req: this._req.raw, res: this._res.raw }
  }

  /** The Fastify instance serving the route (seed: `App()`). */
  app(): FastifyInstance {
    return this._req.server
  }

  /**
   * Runs the next function of the `handle()` chain and resolves to what it returns;
   * resolves to `undefined` after the last one. A thrown error ends the chain and reaches
   * Fastify's error handler.
   */
  async next(): Promise<unknown> {
    const fn = this._chain?.[++this._index]
    if (fn === undefined) return undefined
    return fn(this as never)
  }

  /**
   * Request-scoped storage. With a value, stores it and returns it; without, returns the stored
   * value. Values with `close()` or `[Symbol.asyncDispose]()` are closed when the response
   * finishes or the client aborts.
   */
  locals<T = unknown>(key: string): T
  locals<T>(key: string, value: T): T
  locals(key: string, ...value: unknown[]): unknown {
    if (value.length === 0) return this._locals?.get(key)
    if (this._locals === undefined) {
      const locals = new Map<string, unknown>()
      this._locals = locals
      this._res.raw.once('close', () => closeLocals(locals, this._req.log))
    }
    this._locals.set(key, value[0])
    return value[0]
  }

  /** The user-set context object; an empty object (never `undefined`) when none was set. */
  userContext<T extends object = Record<string, unknown>>(): T {
    this._userContext ??= {}
    return this._userContext as T
  }

  /** Sets the object `userContext()` returns. */
  setUserContext(value: object): this {
    this._userContext = value
    return this
  }
}
