import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { closeLocals } from './locals.js'
import type { ParsedAccept } from './negotiation/accept-header.js'
import type { ResolvedOptions } from './options.js'
import type { ReceivedBody } from './received-body.js'
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

/** The parsed Accept, Accept-Charset, Accept-Encoding and Accept-Language headers (`null` = not parsed yet). */
export interface AcceptCache {
  media: ParsedAccept | undefined | null
  charset: ParsedAccept | undefined | null
  encoding: ParsedAccept | undefined | null
  language: ParsedAccept | undefined | null
}

/** Overrides of method and path (`c.method(m)`, `c.path(p)`) and the state of `restartRouting()`. */
export interface RoutingState {
  method: string | undefined
  path: string | undefined
  restarts: number
  /** route matched by `restartRouting()` */
  route: RouteEntry | undefined
}

/** The routing state of a context, made when it is first changed. */
export function routingOf(c: CtxBase): RoutingState {
  c._routing ??= { method: undefined, path: undefined, restarts: 0, route: undefined }
  return c._routing
}

/**
 * Request-scoped state of a `Ctx`. Every field is created in the constructor (stable object
 * shape) and filled lazily, so a `Ctx` that is only created costs one small allocation; state
 * that few requests use (negotiation's parsed headers, routing overrides) sits in objects of its
 * own, made on first use, so that every `Ctx` is smaller (bytes per request, bench/RESULTS.md).
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
  /** @internal the Accept headers, parsed when negotiation first reads them */
  declare _accepts: AcceptCache | undefined
  /** @internal parsed query string */
  declare _query: URLSearchParams | undefined
  /** @internal */ declare _locals: Map<string, unknown> | undefined
  /** @internal */ declare _userContext: object | undefined
  /** @internal view variables merged by `bind(vars)` */
  declare _viewVars: Record<string, unknown> | undefined
  /** @internal method and path overrides, and what `restartRouting()` found */
  declare _routing: RoutingState | undefined
  /** @internal a body no binding parser keeps, kept by the plugin's hook as it arrives */
  declare _received: ReceivedBody | undefined

  constructor(request: FastifyRequest, reply: FastifyReply, options: ResolvedOptions) {
    fillCtx(this, request, reply, options)
  }

  /** The Fastify request (Fiber: `Request()`). */
  request(): FastifyRequest {
    return this._req
  }

  /** The Fastify reply (Fiber: `Response()`). */
  response(): FastifyReply {
    return this._res
  }

  /** The raw Node request and response (Fiber: `Context()`, the server's request context). */
  context(): { req: IncomingMessage; res: ServerResponse } {
    return { req: this._req.raw, res: this._res.raw }
  }

  /** The Fastify instance serving the route (Fiber: `App()`). */
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

/** Sets every field of a new context, in one order (one object shape for every `Ctx`). */
export function fillCtx(c: CtxBase, request: FastifyRequest, reply: FastifyReply, options: ResolvedOptions): void {
  const fields = c as { -readonly [K in keyof CtxBase]: CtxBase[K] }
  fields._req = request
  fields._res = reply
  fields._opts = options
  fields._chain = undefined
  fields._index = 0
  fields._body = undefined
  fields._chunks = undefined
  fields._accepts = undefined
  fields._query = undefined
  fields._locals = undefined
  fields._userContext = undefined
  fields._viewVars = undefined
  fields._routing = undefined
  fields._received = undefined
}
