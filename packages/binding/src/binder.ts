import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Static, TSchema } from 'typebox'
import { bindAll, noOrigins, type Origins, subjectIn } from './all.js'
import { boundPart } from './bound-parts.js'
import { checkBound } from './check.js'
import { type BindingConfig, configOf } from './config.js'
import { BadRequestError, BindError, BindingSetupError, BindSource } from './errors.js'
import {
  type BindOptions,
  readBody,
  readCookie,
  readCustom,
  readForm,
  readHeader,
  readJson,
  readQuery,
  readRespHeader,
  readTree,
  readUri,
  type Step,
  type Target,
} from './read.js'
import { readTag, withWireNames } from './wire-names.js'

export type { BindOptions } from './read.js'

/** One source's read, called with the binder's target (module-level: no closure per call). */
type Reader = (target: Target, schema: TSchema, step: Step) => unknown

const readXml: Reader = (target, schema, step) => readTree(target, schema, 'xml', step)
const readMsgPack: Reader = (target, schema, step) => readTree(target, schema, 'msgpack', step)
const readCbor: Reader = (target, schema, step) => readTree(target, schema, 'cbor', step)

const plainStep: Step = { options: undefined, defaults: true }
/** The step of a single-source call (shared when there are no options: no allocation per call). */
const single = (options: BindOptions | undefined): Step =>
  options === undefined ? plainStep : { options, defaults: true }

/**
 * Fills typed values from one request (Fiber's `Bind()`). Every operation takes a TypeBox
 * schema and resolves to `Static<typeof schema>`; conversion failures reject with a `BindError`,
 * constraint failures with a `ValidationError`.
 *
 * @example
 * const q = await bind(request, reply).withAutoHandling().query(Search)
 */
export class Binder {
  // The binder is the target its reads get: one object per `bind()`, not two. Its fields are
  // declared and assigned in the constructor, not class fields: a binder is made on every `bind()`,
  // and class fields are defined by an extra initialiser call per object.
  /** @internal */ declare readonly request: FastifyRequest
  /** @internal */ declare readonly reply: FastifyReply | undefined
  /** @internal */ declare readonly config: BindingConfig
  /** @internal binding failures become a plain 400 */ declare autoHandling: boolean
  /** @internal the struct validator is skipped */ declare skipsValidation: boolean

  constructor(request: FastifyRequest, reply?: FastifyReply) {
    this.request = request
    this.reply = reply
    this.config = configOf(request)
    this.autoHandling = false
    this.skipsValidation = false
  }

  /** Binding failures become a plain 400 (`WEFT_BAD_REQUEST`); no `BindError` escapes. */
  withAutoHandling(): this {
    this.autoHandling = true
    return this
  }

  /** The default: binding failures reject with a `BindError`. */
  withoutAutoHandling(): this {
    this.autoHandling = false
    return this
  }

  /** Skip (or, with `false`, run again) the struct validator for the following calls. */
  skipValidation(skip = true): this {
    this.skipsValidation = skip
    return this
  }

  /**
   * URI params, body, query, headers and cookies, in that precedence (or `bindingSource`'s).
   * Each source reads its own tag; `options.files: false` leaves multipart files out.
   */
  all<T extends TSchema>(schema: T, options?: Pick<BindOptions, 'files'>): Promise<Static<T>> {
    const files = options?.files !== false
    const origins = noOrigins()
    return this.#run(schema, 'all', (target) => bindAll(target, schema, files, origins), undefined, undefined, origins)
  }

  /** The body, decoded by its Content-Type (custom binders first). */
  body<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Body, readBody, options, 'body')
  }

  /**
   * A JSON body (`json` tags), decoded once. Another known body format (form, XML...) is a 415;
   * the bytes of other types are decoded as JSON unless `options.requireContentType`.
   */
  json<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Body, readJson, options, 'json')
  }

  /** An XML body (`xml` tags). */
  xml<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Body, readXml, options, 'xml')
  }

  /** A MessagePack body (`msgpack` tags); needs `msgpackBodies` from `@weft/binding/msgpack`. */
  msgPack<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Body, readMsgPack, options, 'msgpack')
  }

  /** A CBOR body (`cbor` tags); needs `cborBodies` from `@weft/binding/cbor`. */
  cbor<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Body, readCbor, options, 'cbor')
  }

  /** An urlencoded or multipart form (`form` tags; `FileField()` fields receive files). */
  form<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Body, readForm, options, 'form')
  }

  /** The query string (`query` tags). */
  query<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Query, readQuery, options, 'query')
  }

  /** Path parameters (`uri` tags). */
  uri<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.URI, readUri, options, 'uri')
  }

  /** Request headers (`header` tags; names match case-insensitively). */
  header<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Header, readHeader, options, 'header')
  }

  /** Cookies (`cookie` tags). */
  cookie<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.Cookie, readCookie, options, 'cookie')
  }

  /** Headers already set on the reply (`respHeader` tags); needs `bind(request, reply)`. */
  respHeader<T extends TSchema>(schema: T, options?: BindOptions): Promise<Static<T>> {
    return this.#run(schema, BindSource.RespHeader, readRespHeader, options, 'respHeader')
  }

  /** The body parsed by the custom binder registered under `name`. */
  custom<T extends TSchema>(name: string, schema: T): Promise<Static<T>> {
    const read: Reader = (target) => {
      const binder = target.config.customBinders.get(name)
      if (binder === undefined) {
        throw new BindingSetupError('WEFT_UNKNOWN_BINDER', `no custom binder is registered under "${name}"`)
      }
      return readCustom(target, binder.parse.bind(binder), schema)
    }
    return this.#run(schema, BindSource.Body, read, undefined, undefined)
  }

  // Not async: a source that decodes synchronously (query, uri, header, cookie, parsed bodies)
  // with the default validator settles in one step, without the awaits of an async function.
  #run<T extends TSchema>(
    schema: T,
    source: string,
    read: Reader,
    options: BindOptions | undefined,
    tag: string | undefined,
    origins?: Origins,
  ): Promise<Static<T>> {
    try {
      const out = boundPart(this.request, source, schema) ?? read(this, schema, single(options))
      const checked = isThenable(out)
        ? out.then((value) => this.#checked(value, schema, source, origins))
        : this.#checked(out, schema, source, origins)
      if (isThenable(checked)) {
        return checked.then(undefined, (err) => this.#rethrow(err, schema, tag, options)) as Promise<Static<T>>
      }
      return Promise.resolve(checked as Static<T>)
    } catch (err) {
      return Promise.reject(this.#failure(err, schema, tag, options))
    }
  }

  /** `out` once the struct validator accepts it (maps and skipped validation pass as they are). */
  #checked(out: unknown, schema: TSchema, source: string, origins: Origins | undefined): unknown {
    if (this.skipsValidation) return out
    // all()'s messages name the source each field came from
    return checkBound(this.config, out, schema, source, origins === undefined ? undefined : subjectIn(origins))
  }

  /** What a call rejects with: validation paths under the client's names, or auto-handling's 400. */
  #failure(err: unknown, schema: TSchema, tag: string | undefined, options: BindOptions | undefined): unknown {
    if (tag !== undefined) err = withWireNames(err, schema, readTag(tag, this.config, this.request, options?.tag))
    return this.autoHandling && err instanceof BindError ? new BadRequestError() : err
  }

  #rethrow(err: unknown, schema: TSchema, tag: string | undefined, options: BindOptions | undefined): never {
    throw this.#failure(err, schema, tag, options)
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}

/**
 * The binder of one request (Fiber's `Bind()`); pass the reply to use `respHeader()`.
 *
 * @example
 * app.get('/users/:id', async (request, reply) => {
 *   const { id } = await bind(request, reply).uri(Type.Object({ id: Type.Integer() }))
 * })
 */
export function bind(request: FastifyRequest, reply?: FastifyReply): Binder {
  return new Binder(request, reply)
}
