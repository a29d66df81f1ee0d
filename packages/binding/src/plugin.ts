import { parse as parseQueryString } from 'fast-querystring'
import type { FastifyBodyParser, FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { addKeepingParser, decorateBodyBytes } from './body-bytes.js'
import {
  applyParserConfig,
  type CustomBinder,
  ensureConfig,
  type MultipartLimits,
  type ParserConfig,
  registerCustomBinder,
  type StructValidator,
} from './config.js'
import { InvalidUtf8Error } from './errors.js'
import { checkJsonDepth } from './json-depth.js'
import { noteJsonText } from './json-text.js'
import { deferMultipart } from './multipart.js'
import { cborTypes, keepRawBodies, msgpackTypes, xmlTypes } from './raw-bodies.js'
import { acceptUntypedBodies } from './untyped-body.js'
import { utf8Text } from './utf8.js'

/**
 * Options of the `@weft/binding` plugin (the seed's framework settings for binding).
 *
 * @example
 * await app.register(weftBinding, {
 *   enableSplittingOnParsers: true,
 *   multipartLimits: { fileSize: 5 * 1024 * 1024, files: 4 },
 * })
 */
export type WeftBindingOptions = {
  /** `?colors=a,b` fills array fields with `['a', 'b']` (query, form, header, cookie; default false). */
  enableSplittingOnParsers?: boolean
  /** Replaces the default validator (TypeBox's, compiled per schema). */
  structValidator?: StructValidator
  /** Custom body binders, as `registerCustomBinder` would add them. */
  customBinders?: CustomBinder[]
  /** Decoder settings, as `setParserDecoder` would apply them. */
  parserDecoder?: ParserConfig
  /** Limits of multipart bodies (files are held in memory). */
  multipartLimits?: MultipartLimits
  /**
   * Accept `multipart/form-data` bodies (default `true`), read by `multipartForm(request)` and
   * `bind().form()`/`body()`. The parser adds no hook: routes that get no multipart body pay
   * nothing for it. With `false` such bodies are answered 415 by Fastify.
   */
  multipart?: boolean
  /**
   * `'absent'` (default): a JSON request with an empty body has no body (`request.body` undefined),
   * as the seed's `All()` needs; the plugin replaces Fastify's `application/json` parser for that,
   * with the same decoding and poisoning checks (so a JSON parser of the app's own, added before,
   * is replaced too). `'error'` keeps the parser in place and Fastify's 400
   * `FST_ERR_CTP_EMPTY_JSON_BODY`.
   */
  emptyJsonBody?: 'absent' | 'error'
}

// Kept as bytes: bind() decodes them with the schema at hand, once their plugin (xmlBodies,
// msgpackBodies, cborBodies) is registered. Accepted without it too, so that binding them says
// how to enable the format instead of Fastify's bare 415.
const rawTypes = [...xmlTypes, ...msgpackTypes, ...cborTypes]

async function plugin(fastify: FastifyInstance, options: WeftBindingOptions): Promise<void> {
  const config = ensureConfig(fastify)
  if (options.enableSplittingOnParsers !== undefined) config.splitting = options.enableSplittingOnParsers
  if (options.structValidator !== undefined) config.structValidator = options.structValidator
  for (const binder of options.customBinders ?? []) registerCustomBinder(fastify, binder)
  if (options.parserDecoder !== undefined) applyParserConfig(config, options.parserDecoder)
  if (options.multipartLimits !== undefined) config.multipartLimits = { ...options.multipartLimits }

  decorateBodyBytes(fastify)
  const kept = config.keptTypes
  const form = 'application/x-www-form-urlencoded'
  if (!fastify.hasContentTypeParser(form)) {
    addKeepingParser(fastify, kept, form, (_request, body, done) => {
      const text = utf8Text(body)
      if (text === undefined) done(new InvalidUtf8Error(), undefined)
      else done(null, parseQueryString(text))
    })
  }
  keepRawBodies(fastify, rawTypes)
  if (options.emptyJsonBody !== 'error') {
    // replaced, so that an empty body is no body
    fastify.removeContentTypeParser('application/json')
    addKeepingParser(fastify, kept, 'application/json', jsonParser(fastify))
  }
  const jsonSuffix = /^[a-z]+\/[^;\s]+\+json(;|$)/i
  if (!fastify.hasContentTypeParser(jsonSuffix)) addKeepingParser(fastify, kept, jsonSuffix, jsonParser(fastify))
  acceptUntypedBodies(fastify, kept)
  if (options.multipart !== false && !fastify.hasContentTypeParser('multipart/form-data')) {
    fastify.addContentTypeParser('multipart/form-data', deferMultipart)
  }
}

/**
 * Fastify's JSON parser (with the app's poisoning settings), given the text as Fastify's own string
 * parsers decode it; an empty body is no body, and bytes that are not UTF-8 are a 400
 * (RFC 8259 §8.1), not text with U+FFFD in it.
 */
function jsonParser(fastify: FastifyInstance): FastifyBodyParser<Buffer> {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = fastify.initialConfig
  const parse = fastify.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning)
  return (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined)
      return
    }
    const text = utf8Text(body)
    if (text === undefined) {
      done(new InvalidUtf8Error(), undefined)
      return
    }
    // a large body nested deep costs the parser far more than its size (json-depth.ts)
    try {
      checkJsonDepth(text)
    } catch (error) {
      done(error as Error, undefined)
      return
    }
    noteJsonText(body, text)
    parse(request, text, done)
  }
}

/**
 * Registers `@weft/binding`: its settings and body parsers for urlencoded forms, multipart forms,
 * XML, `+json` types and bodies without a Content-Type (each only where none exists; no hooks).
 * `bind(request)` also works without it, with the defaults.
 */
export const weftBinding: FastifyPluginAsync<WeftBindingOptions> = fp(plugin, {
  fastify: '5.x',
  name: '@weft/binding',
})
