import { type Binder, bind, type FileHeader, type MultipartForm } from '@weft/binding'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Static, TSchema } from 'typebox'
import { type CtxBase, fillCtx } from './ctx-base.js'
import { ResponseCtx } from './ctx-response.js'
import * as forms from './forms.js'
import type { ResolvedOptions, Storage } from './options.js'
import { restartRouting } from './restart.js'

/**
 * The request context of weft (Fiber's `Ctx`): one per request, reached as `request.ctx`,
 * `ctx(request, reply)` or the argument of `handle()` functions. Response state set through it
 * is buffered and sent once, when the `handle()` chain settles.
 *
 * @example
 * ```ts
 * app.get('/users/:id', handle(async (c) => {
 *   c.status(200).vary('Accept').format({ id: c.paramsInt('id') })
 * }))
 * ```
 */
export class Ctx extends ResponseCtx {
  /** The `@weft/binding` binder of this request (tags `uri`, `header`, ...). */
  bind(): Binder
  /** Merges view variables read by `render()` (later values win). */
  bind(vars: Record<string, unknown>): this
  bind(vars?: Record<string, unknown>): Binder | this {
    if (vars === undefined) return bind(this._req, this._res)
    this._viewVars = { ...this._viewVars, ...vars }
    return this
  }

  /** Binds route parameters with the `params` tag. */
  paramsParser<T extends TSchema>(schema: T): Promise<Static<T>> {
    return bind(this._req, this._res).uri(schema, { tag: 'params' })
  }

  /** Binds request headers with the `reqHeader` tag. */
  reqHeaderParser<T extends TSchema>(schema: T): Promise<Static<T>> {
    return bind(this._req, this._res).header(schema, { tag: 'reqHeader' })
  }

  /** Binds the query string (tag `query`; honours `enableSplittingOnParsers`). */
  queryParser<T extends TSchema>(schema: T): Promise<Static<T>> {
    return bind(this._req, this._res).query(schema)
  }

  /** Binds cookies (tag `cookie`). */
  cookieParser<T extends TSchema>(schema: T): Promise<Static<T>> {
    return bind(this._req, this._res).cookie(schema)
  }

  /** Binds the body by Content-Type (JSON, XML, forms); multipart files are left out (use `formFile`). */
  bodyParser<T extends TSchema>(schema: T): Promise<Static<T>> {
    return bind(this._req, this._res).body(schema, { files: false })
  }

  /** The multipart form: `value` and `file` maps (empty for other bodies). */
  multipartForm(): Promise<MultipartForm> {
    return forms.readMultipart(this)
  }

  /** The first file uploaded under `key` (a 400 `WEFT_MISSING_FILE` when none). */
  formFile(key: string): Promise<FileHeader> {
    return forms.formFile(this, key)
  }

  /** The first form value under `key` (query, urlencoded body, multipart), else `def` (`''`). */
  formValue(key: string, def = ''): Promise<string> {
    return forms.formValue(this, key, def)
  }

  /** Writes an uploaded file to disk. */
  saveFile(file: FileHeader, path: string): Promise<void> {
    return forms.saveFile(file, path)
  }

  /** Stores an uploaded file in `storage` (default: the plugin's `storage` option). */
  saveFileToStorage(file: FileHeader, path: string, storage?: Storage): Promise<void> {
    return forms.saveFileToStorage(this, file, path, storage)
  }

  /** Routes the request again with the current `method()`/`path()` (bounded by `maxRestarts`). */
  restartRouting(): Promise<unknown> {
    return restartRouting(this)
  }
}

/**
 * Makes the `Ctx` of a request: a plain constructor that shares `Ctx.prototype`, used instead of
 * `new Ctx`. V8 builds its objects as a base class's, where `new Ctx` first walked the chain of
 * default constructors (Ctx, ResponseCtx, RequestCtx) to reach CtxBase's: about 200 instructions
 * of every request that uses a `Ctx`. The object is the same (`instanceof Ctx`, CtxBase's fields).
 */
function NewCtx(this: CtxBase, request: FastifyRequest, reply: FastifyReply, options: ResolvedOptions): void {
  fillCtx(this, request, reply, options)
}
NewCtx.prototype = Ctx.prototype

/** A new `Ctx` of `request` (ctx-slot.ts holds it on the request). */
export function createCtx(request: FastifyRequest, reply: FastifyReply, options: ResolvedOptions): Ctx {
  return new (NewCtx as unknown as new (...args: Parameters<typeof NewCtx>) => Ctx)(request, reply, options)
}
