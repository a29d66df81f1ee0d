import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'

/**
 * Checks a bound value (Fiber's `StructValidator`). Throw (ideally a `ValidationError`) to reject.
 * Runs only for object schemas, after conversion, unless `skipValidation(true)`.
 *
 * @example
 * const structValidator: StructValidator = {
 *   validate(out) { if (!isValid(out)) throw new ValidationError('body', [...]) },
 * }
 */
export type StructValidator = {
  validate(out: unknown, schema: TSchema): void | Promise<void>
}

/**
 * A body decoder of your own (Fiber's custom binder), used by `custom(name, schema)` and by
 * `body(schema)` when the request's Content-Type is one of `mimeTypes`.
 *
 * @example
 * const yaml: CustomBinder = {
 *   name: 'yaml',
 *   mimeTypes: ['application/yaml'],
 *   parse: (request) => YAML.parse(String(request.body)),
 * }
 */
export type CustomBinder = {
  name: string
  mimeTypes: string[]
  /** Returns the bound value; it is then validated against `schema` like any other. */
  parse(request: FastifyRequest, schema: TSchema): unknown
}

/**
 * A converter for string values of schemas with a given `format` (Fiber's `ParserType`).
 *
 * @example
 * { customType: 'date-time', converter: (s) => new Date(s) }
 */
export type ParserType = {
  /** The schema `format` this converter handles. */
  customType: string
  /** Turns the raw string into the value; throw to reject it (a `BindError`). */
  converter: (value: string) => unknown
}

/**
 * Decoder settings (Fiber's `ParserConfig`), applied with `setParserDecoder`.
 *
 * @example
 * setParserDecoder(app, { ignoreUnknownKeys: false, zeroEmpty: true })
 */
export type ParserConfig = {
  /** Keys the schema does not know are skipped (default `true`); `false` makes them a `BindError`. */
  ignoreUnknownKeys?: boolean
  /** An empty string becomes the type's zero value (`0`, `false`) instead of a conversion error. */
  zeroEmpty?: boolean
  /** Converters for string values, chosen by the field schema's `format`. */
  parserType?: ParserType[]
  /** Read this schema option as the key name instead of the source's tag (`query`, `header`...). */
  setAliasTag?: string
}

/** Limits of multipart bodies; going over one is a 413. */
export type MultipartLimits = {
  /** Largest file in bytes (default: Fastify's `bodyLimit`). */
  fileSize?: number
  /** Most files in one request (default 100). */
  files?: number
  /** Most non-file fields (default 1000). */
  fields?: number
  /** Most parts in all (default 1000). */
  parts?: number
  /** Largest non-file field value in bytes (default 1 MiB). */
  fieldSize?: number
}

/** A decoder for a binary body format, installed by `@weft/binding/msgpack` or `/cbor`. */
export type BinaryDecoder = (bytes: Buffer) => unknown

/** Parses an XML document into a tree of strings keyed by element name, installed by `@weft/binding/xml`. */
export type XmlDecoder = (text: string) => Record<string, unknown>

/**
 * Undoes the Content-Encoding (`coding`, the header as sent) of a body one of the plugin's parsers
 * reads, before it is parsed; rejects with an error that has a `statusCode` (413, 415, 400...).
 * `@weft/context` installs one, with `c.body()`'s limits.
 */
export type BodyDecoder = (request: FastifyRequest, bytes: Buffer, coding: string) => Promise<Buffer>

/** The resolved settings `bind(request)` works with. */
export type BindingConfig = {
  splitting: boolean
  structValidator: StructValidator | undefined
  customBinders: Map<string, CustomBinder>
  ignoreUnknownKeys: boolean
  zeroEmpty: boolean
  converters: Map<string, (value: string) => unknown>
  aliasTag: string | undefined
  xml: XmlDecoder | undefined
  msgpack: BinaryDecoder | undefined
  cbor: BinaryDecoder | undefined
  multipartLimits: MultipartLimits
  /** Whether the plugin's default parsers include one for multipart forms (option `multipart`). */
  multipart: boolean
  /** Option `emptyJsonBody`: `'absent'` has the plugin's JSON parser take the place of Fastify's default. */
  emptyJsonBody: 'absent' | 'error'
  /** Decodes a coded body before those parsers parse it; without one, such a body is a 415. */
  bodyDecoder: BodyDecoder | undefined
  /** Plans compiled for this configuration, per schema and tag; replaced when the config changes. */
  plans: WeakMap<TSchema, Map<string, unknown>>
}

const kBindingConfig = Symbol.for('@weft/binding.config')

type WithConfig = { [kBindingConfig]?: BindingConfig }

/** A fresh configuration with the defaults. */
export function createConfig(): BindingConfig {
  return {
    splitting: false,
    structValidator: undefined,
    customBinders: new Map(),
    ignoreUnknownKeys: true,
    zeroEmpty: false,
    converters: new Map(),
    aliasTag: undefined,
    xml: undefined,
    msgpack: undefined,
    cbor: undefined,
    multipartLimits: {},
    multipart: true,
    emptyJsonBody: 'absent',
    bodyDecoder: undefined,
    plans: new WeakMap(),
  }
}

const defaults = createConfig()

// The last instance asked and its configuration. Looking the symbol up on an instance walks its
// encapsulation prototypes (dictionary-mode objects): a cost on every bind() that Fastify's own
// schema path does not pay. Configurations change in place; only a new one (ensureConfig) resets this.
let lastServer: unknown
let lastConfig: BindingConfig = defaults

/** The configuration of the instance serving `request` (defaults when the plugin is not registered). */
export function configOf(request: FastifyRequest): BindingConfig {
  const server = request.server as unknown as WithConfig | undefined
  if (server !== lastServer) {
    lastConfig = server?.[kBindingConfig] ?? defaults
    lastServer = server
  }
  return lastConfig
}

/** The configuration `app`'s context sees (its own or its parent's; defaults when there is none). */
export function configOfInstance(app: FastifyInstance): BindingConfig {
  return (app as unknown as WithConfig)[kBindingConfig] ?? defaults
}

/**
 * The configuration of `app`'s own encapsulation context, created there when missing. A child
 * context sees its parent's configuration through the prototype chain until it changes something:
 * then it gets a copy of its own, so that a child's binders and decoder settings stay in the child
 * (and its own children), as Fastify's decorators and parsers do.
 */
export function ensureConfig(app: FastifyInstance): BindingConfig {
  const holder = app as unknown as WithConfig
  if (Object.hasOwn(holder, kBindingConfig)) return holder[kBindingConfig] as BindingConfig
  const inherited = holder[kBindingConfig]
  const config = inherited === undefined ? createConfig() : copyConfig(inherited)
  Object.defineProperty(holder, kBindingConfig, { value: config, writable: true, configurable: true })
  lastServer = undefined
  return config
}

function copyConfig(config: BindingConfig): BindingConfig {
  return {
    ...config,
    customBinders: new Map(config.customBinders),
    converters: new Map(config.converters),
    multipartLimits: { ...config.multipartLimits },
    plans: new WeakMap(),
  }
}

/** Installs the decoder of coded bodies that the plugin's parsers read (see {@link BodyDecoder}). */
export function setBodyDecoder(app: FastifyInstance, decoder: BodyDecoder): void {
  ensureConfig(app).bodyDecoder = decoder
}

/**
 * Configures the body/query decoder of `app` (Fiber's `SetParserDecoder`).
 *
 * @example
 * setParserDecoder(app, {
 *   ignoreUnknownKeys: false,
 *   parserType: [{ customType: 'date-time', converter: (s) => new Date(s) }],
 * })
 */
export function setParserDecoder(app: FastifyInstance, parserConfig: ParserConfig): void {
  applyParserConfig(ensureConfig(app), parserConfig)
}

/** Applies `parserConfig` to `config` and drops the plans compiled for the old settings. */
export function applyParserConfig(config: BindingConfig, parserConfig: ParserConfig): void {
  if (parserConfig.ignoreUnknownKeys !== undefined) {
    config.ignoreUnknownKeys = parserConfig.ignoreUnknownKeys
  }
  if (parserConfig.zeroEmpty !== undefined) config.zeroEmpty = parserConfig.zeroEmpty
  if (parserConfig.setAliasTag !== undefined) {
    config.aliasTag = parserConfig.setAliasTag === '' ? undefined : parserConfig.setAliasTag
  }
  for (const { customType, converter } of parserConfig.parserType ?? []) {
    config.converters.set(customType, converter)
  }
  config.plans = new WeakMap()
}

/** The custom binder registered for `mediaType` (lower case, no parameters), if any. */
export function customBinderFor(config: BindingConfig, mediaType: string): CustomBinder | undefined {
  for (const binder of config.customBinders.values()) {
    if (binder.mimeTypes.some((type) => type.toLowerCase() === mediaType)) return binder
  }
  return undefined
}
