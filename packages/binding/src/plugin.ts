import { parse as parseQueryString } from 'fast-querystring'
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import {
  applyParserConfig,
  type CustomBinder,
  ensureConfig,
  type MultipartLimits,
  type ParserConfig,
  type StructValidator,
} from './config.js'
import { deferMultipart } from './multipart.js'
import { cborTypes, keepRawBodies, msgpackTypes } from './raw-bodies.js'

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
}

// Kept as bytes: bind() decodes them with the schema at hand. MessagePack and CBOR bodies are
// accepted too, so that binding them without their setup plugin says how to enable it instead
// of Fastify's bare 415.
const rawTypes = ['application/xml', 'text/xml', /^[a-z]+\/[^;\s]+\+xml(;|$)/i, ...msgpackTypes, ...cborTypes]

async function plugin(fastify: FastifyInstance, options: WeftBindingOptions): Promise<void> {
  const config = ensureConfig(fastify)
  if (options.enableSplittingOnParsers !== undefined) config.splitting = options.enableSplittingOnParsers
  if (options.structValidator !== undefined) config.structValidator = options.structValidator
  for (const binder of options.customBinders ?? []) config.customBinders.set(binder.name, binder)
  if (options.parserDecoder !== undefined) applyParserConfig(config, options.parserDecoder)
  if (options.multipartLimits !== undefined) config.multipartLimits = { ...options.multipartLimits }

  if (!fastify.hasContentTypeParser('application/x-www-form-urlencoded')) {
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, parseQueryString(body as string))
    })
  }
  keepRawBodies(fastify, rawTypes)
  const jsonSuffix = /^[a-z]+\/[^;\s]+\+json(;|$)/i
  if (!fastify.hasContentTypeParser(jsonSuffix)) {
    fastify.addContentTypeParser(jsonSuffix, { parseAs: 'string' }, fastify.getDefaultJsonParser('error', 'error'))
  }
  if (options.multipart !== false && !fastify.hasContentTypeParser('multipart/form-data')) {
    fastify.addContentTypeParser('multipart/form-data', deferMultipart)
  }
}

/**
 * Registers `@weft/binding`: its settings and body parsers for urlencoded forms, multipart forms,
 * XML and `+json` types (each only where none exists; no hooks).
 * `bind(request)` also works without it, with the defaults.
 */
export const weftBinding: FastifyPluginAsync<WeftBindingOptions> = fp(plugin, {
  fastify: '5.x',
  name: '@weft/binding',
})
