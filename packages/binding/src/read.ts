import type { FastifyReply, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { binaryBody, jsonBody, urlencodedBody, xmlBody } from './body.js'
import { type BindingConfig, customBinderFor } from './config.js'
import { bodyTypes, expectedTypes, formatOf, mediaTypeOf } from './content-type.js'
import { decodeMap, fillsField } from './decode-map.js'
import { decodeRecord, isRecordSchema, normalizeBrackets, recordPlanFor } from './decode-record.js'
import { decodeBody, type TreeMode, treeDecoderFor } from './decode-tree.js'
import { BindError, BindingSetupError, BindSource, UnsupportedMediaTypeError, ValidationError } from './errors.js'
import { bindFiles } from './files.js'
import { hasNoEscapes } from './json-text.js'
import type { MapOptions, RawMap } from './map-types.js'
import { multipartForm } from './multipart.js'
import { type ObjectPlan, planFor } from './plan.js'
import { cookieMap, headerMap, paramsMap, queryMap, respHeaderMap, toRawMap } from './sources.js'

/**
 * Options of one binding call.
 *
 * @example
 * await bind(request).uri(Params, { tag: 'params' })   // read `params` options instead of `uri`
 * await bind(request).body(Form, { files: false })     // leave multipart files out
 */
export type BindOptions = {
  /** Read this schema option as the key name instead of the source's own tag. */
  tag?: string
  /** `false`: file fields of multipart forms are not filled. */
  files?: boolean
  /**
   * `json()` only: answer 415 unless the Content-Type is `application/json` or `+json` (by default
   * the bytes of a type with no format of its own, `text/plain` say, are decoded as JSON).
   */
  requireContentType?: boolean
}

/** The request being bound and the settings in force. */
export type Target = { request: FastifyRequest; reply: FastifyReply | undefined; config: BindingConfig }

/** One read: the caller's options; `defaults: false` leaves defaults to `all()`. */
export type Step = { options: BindOptions | undefined; defaults: boolean }

/** The body formats read as trees (their own tag each). */
export type TreeFormat = 'json' | 'xml' | 'msgpack' | 'cbor'

/** The query string, converted by `schema`. */
export function readQuery(target: Target, schema: TSchema, step: Step): Record<string, unknown> {
  return readMap(target, schema, 'query', step, queryMap(target.request), BindSource.Query)
}

/** Path parameters. */
export function readUri(target: Target, schema: TSchema, step: Step): Record<string, unknown> {
  return readMap(target, schema, 'uri', step, paramsMap(target.request), BindSource.URI)
}

/** Request headers. */
export function readHeader(target: Target, schema: TSchema, step: Step): Record<string, unknown> {
  return readMap(target, schema, 'header', step, headerMap(target.request), BindSource.Header)
}

/** Cookies. */
export function readCookie(target: Target, schema: TSchema, step: Step): Record<string, unknown> {
  return readMap(target, schema, 'cookie', step, cookieMap(target.request), BindSource.Cookie)
}

/** Headers already set on the reply. */
export function readRespHeader(target: Target, schema: TSchema, step: Step): Record<string, unknown> {
  if (target.reply === undefined) {
    throw new BindingSetupError('WEFT_NO_REPLY', 'respHeader() needs the reply: call bind(request, reply)')
  }
  return readMap(target, schema, 'respHeader', step, respHeaderMap(target.reply), BindSource.RespHeader)
}

/**
 * The body by Content-Type: custom binders first, then the built-in formats. Not `async`: a JSON,
 * XML, MessagePack or CBOR body is bound at once, so a route schema validated through Weft stays
 * on Fastify's synchronous validation path; forms and custom binders return a promise.
 */
export function readBody(target: Target, schema: TSchema, step: Step): unknown {
  const mediaType = mediaTypeOf(target.request)
  const binder = customBinderFor(target.config, mediaType)
  if (binder !== undefined) return readCustom(target, binder.parse.bind(binder), schema)
  const format = formatOf(mediaType)
  switch (format) {
    case 'xml':
    case 'msgpack':
    case 'cbor':
      // the client chose a format this app does not decode (its plugin is not registered): a
      // 415, where an explicit `xml()`/`msgPack()`/`cbor()` call without it is the server's mistake
      if (target.config[format] === undefined) {
        throw new UnsupportedMediaTypeError(mediaType, bodyTypes(target.config))
      }
      return readTree(target, schema, format, step)
    case 'json':
      return readTree(target, schema, format, step)
    case 'form':
    case 'multipart':
      return readForm(target, schema, step)
    default:
      if (mediaType === '' && target.request.body == null) return readTree(target, schema, 'json', step)
      throw new UnsupportedMediaTypeError(mediaType, bodyTypes(target.config))
  }
}

/** An urlencoded or multipart form; `FileField()` fields receive the files. */
export async function readForm(target: Target, schema: TSchema, step: Step): Promise<Record<string, unknown>> {
  const { request } = target
  const mediaType = mediaTypeOf(request)
  const format = formatOf(mediaType)
  if (format === 'multipart') {
    if (isRecordSchema(schema)) {
      // a map takes every text field and no file
      const form = await multipartForm(request, (_name, isFile) => !isFile)
      checkFileNames(form.file)
      return readMap(target, schema, 'form', step, form.value, BindSource.Body)
    }
    const plan = planFor(schema, tagFor(target, 'form', step.options), target.config)
    const form = await multipartForm(request, (name) => fillsField(plan, name))
    checkFileNames(form.file)
    const out = readMap(target, schema, 'form', step, form.value, BindSource.Body)
    if (step.options?.files !== false) bindFiles(plan, form.file, out)
    return out
  }
  if (format === 'form' || (mediaType === '' && request.body == null)) {
    return readMap(target, schema, 'form', step, urlencodedBody(request), BindSource.Body)
  }
  throw new UnsupportedMediaTypeError(mediaType, expectedTypes.form)
}

/**
 * The JSON body of `json()`: a body of another known format (form, multipart, XML, MessagePack,
 * CBOR, a custom binder's type) is a 415, and so is any non-JSON type with `requireContentType`.
 */
export function readJson(target: Target, schema: TSchema, step: Step): unknown {
  const mediaType = mediaTypeOf(target.request)
  const format = formatOf(mediaType)
  if (format !== 'json' && (step.options?.requireContentType === true || isOtherFormat(target, mediaType, format))) {
    throw new UnsupportedMediaTypeError(mediaType, expectedTypes.json)
  }
  // an empty JSON body is no fields here: the validator names the required ones
  return decodeTreeBody(target, schema, 'json', step, jsonBody(target.request, format === 'json', false))
}

function isOtherFormat(target: Target, mediaType: string, format: string | undefined): boolean {
  return format !== undefined || customBinderFor(target.config, mediaType) !== undefined
}

/** File field names follow the bracket rule of every form key (Fiber checks them too). */
function checkFileNames(files: Record<string, unknown>): void {
  for (const name in files) {
    if (normalizeBrackets(name) === '\u0000') {
      throw new BindError(BindSource.Body, name, `unmatched brackets in key "${name}"`)
    }
  }
}

/** A JSON, XML, MessagePack or CBOR body. */
export function readTree(target: Target, schema: TSchema, format: TreeFormat, step: Step): unknown {
  const { request, config } = target
  const value =
    format === 'json'
      ? jsonBody(request, formatOf(mediaTypeOf(request)) === 'json', true)
      : format === 'xml'
        ? xmlBody(request, config)
        : binaryBody(request, config, format)
  return decodeTreeBody(target, schema, format, step, value)
}

/** A parsed body of `format`, decoded by `schema`. */
function decodeTreeBody(target: Target, schema: TSchema, format: TreeFormat, step: Step, value: unknown): unknown {
  const mode: TreeMode = format === 'xml' ? 'text' : 'typed'
  const decoder = treeDecoderFor(schema, step.options?.tag ?? format, mode, target.config)
  const wellFormed = format === 'json' && hasNoEscapes(target.request)
  return decodeBody(decoder, value, BindSource.Body, target.config, step.defaults, wellFormed)
}

/** The value a custom binder's `parse` returns; its plain failures become a `BindError`. */
export async function readCustom(
  target: Target,
  parse: (request: FastifyRequest, schema: TSchema) => unknown,
  schema: TSchema,
): Promise<unknown> {
  try {
    return await parse(target.request, schema)
  } catch (err) {
    if (err instanceof BindError || err instanceof ValidationError) throw err
    if (typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err
    throw new BindError(BindSource.Body, '', err instanceof Error ? err : String(err))
  }
}

function tagFor(target: Target, tag: string, options: BindOptions | undefined): string {
  return options?.tag ?? target.config.aliasTag ?? tag
}

const optionCache = new WeakMap<BindingConfig, Map<string, MapOptions & { form: boolean }>>()

/** The decoding options of a source (built once per configuration, not per request). */
function mapOptionsFor(config: BindingConfig, source: BindSource, form: boolean, defaults: boolean): MapOptions {
  // the last options asked, first: a route asks for the same ones on every request
  const last = lastOptions
  if (
    last !== undefined &&
    last.config === config &&
    last.source === source &&
    last.form === form &&
    last.defaults === defaults &&
    last.split === (config.splitting && source !== BindSource.URI)
  ) {
    return last
  }
  lastOptions = optionsFor(config, source, form, defaults)
  return lastOptions
}

let lastOptions: (MapOptions & { form: boolean }) | undefined

function optionsFor(
  config: BindingConfig,
  source: BindSource,
  form: boolean,
  defaults: boolean,
): MapOptions & { form: boolean } {
  let byKey = optionCache.get(config)
  if (byKey === undefined) {
    byKey = new Map()
    optionCache.set(config, byKey)
  }
  const key = form ? (defaults ? 'form' : 'form-') : defaults ? source : `${source}-`
  let options = byKey.get(key)
  // the plugin may flip splitting after a first request bound with the old setting
  if (options === undefined || options.split !== (config.splitting && source !== BindSource.URI)) {
    options = {
      source,
      config,
      caseInsensitive: source !== BindSource.URI,
      split: config.splitting && source !== BindSource.URI,
      trim: source === BindSource.Header || source === BindSource.RespHeader,
      defaults,
      brackets: source === BindSource.Query || form,
      form,
    }
    byKey.set(key, options)
  }
  return options
}

function readMap(
  target: Target,
  schema: TSchema,
  tag: string,
  step: Step,
  map: RawMap,
  source: BindSource,
): Record<string, unknown> {
  const config = target.config
  const options = mapOptionsFor(config, source, tag === 'form', step.defaults)
  if (isRecordSchema(schema)) {
    return decodeRecord(recordPlanFor(schema, config), toRawMap(map), options)
  }
  const planTag = tagFor(target, tag, step.options)
  const last = lastPlan
  const plan =
    last !== undefined && last.schema === schema && last.tag === planTag && last.plans === config.plans
      ? last.plan
      : rememberPlan(schema, planTag, config)
  return decodeMap(plan, map, options)
}

// The plan of the last map read: a route binds the same schema on every request, so the two
// lookups behind `planFor` (a WeakMap by schema, a Map by tag) are skipped for the common case.
// `plans` is the configuration's table, replaced when its decoders change (so is the plan).
let lastPlan: { schema: TSchema; tag: string; plans: unknown; plan: ObjectPlan } | undefined

function rememberPlan(schema: TSchema, tag: string, config: BindingConfig): ObjectPlan {
  const plan = planFor(schema, tag, config)
  lastPlan = { schema, tag, plans: config.plans, plan }
  return plan
}
