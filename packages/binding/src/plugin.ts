import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import { type BodyTextRules, installBodyText } from './body-text.js'
import {
  applyParserConfig,
  type CustomBinder,
  ensureConfig,
  type MultipartLimits,
  type ParserConfig,
  type StructValidator,
} from './config.js'
import { registerCustomBinder } from './custom-binders.js'
import { provideDefaultParsers } from './default-parsers.js'
import { decorateRequestState } from './request-state.js'
import { checkRouteSchemas } from './route-check.js'
import { type AjvOptions, installRouteSchemas, type RouteSchemasMode } from './route-schemas.js'

/**
 * Options of the `@weft/binding` plugin (Fiber's framework settings for binding).
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
   * as `all()` needs; the plugin's JSON parser takes the place of Fastify's default one
   * for that, with the same decoding and poisoning checks. A JSON parser of the app's own is never
   * replaced: its answer to an empty body stands. `'error'` keeps Fastify's parser and its 400
   * `FST_ERR_CTP_EMPTY_JSON_BODY`.
   */
  emptyJsonBody?: 'absent' | 'error'
  /**
   * Route schemas (`schema.querystring`, `params`, `headers`, `body`) written with Weft's tags are
   * validated and bound by Weft in Fastify's validation phase, for the routes declared after the
   * plugin in its scope (`true`, the default, is `'tagged'`); untagged schemas stay with Fastify's
   * Ajv. `'all'`: every object schema without a `$ref` too, read under its property names, so that
   * every validation failure of the scope has Weft's codes. `false` leaves every route schema to
   * Fastify.
   */
  routeSchemas?: boolean | RouteSchemasMode
  /**
   * Text rules for the strings of every parsed body in the plugin's scope, checked before validation
   * (off by default): no C0 control character or DEL (tabs and line breaks in `multiLineFields`
   * only), identifier fields in Unicode NFC and without invisible characters. A break is a 400
   * `ValidationError` naming each field, keyword `controlCharacters` or `invisibleCharacters`.
   */
  bodyText?: BodyTextRules
  /**
   * The options the app gave `Fastify({ ajv })`: the untagged parts of a route that also has tagged
   * ones are compiled by an Ajv of Fastify's defaults plus these.
   */
  ajv?: AjvOptions
}

async function plugin(fastify: FastifyInstance, options: WeftBindingOptions): Promise<void> {
  const config = ensureConfig(fastify)
  if (options.enableSplittingOnParsers !== undefined) config.splitting = options.enableSplittingOnParsers
  if (options.structValidator !== undefined) config.structValidator = options.structValidator
  for (const binder of options.customBinders ?? []) registerCustomBinder(fastify, binder)
  if (options.parserDecoder !== undefined) applyParserConfig(config, options.parserDecoder)
  if (options.multipartLimits !== undefined) config.multipartLimits = { ...options.multipartLimits }
  if (options.multipart !== undefined) config.multipart = options.multipart
  if (options.emptyJsonBody !== undefined) config.emptyJsonBody = options.emptyJsonBody

  // a mistake in a route schema's tags fails the boot, not a request
  fastify.addHook('onRoute', checkRouteSchemas)
  if (options.routeSchemas !== false) {
    installRouteSchemas(fastify, options.routeSchemas === 'all' ? 'all' : 'tagged', options.ajv)
  }
  if (options.bodyText !== undefined) installBodyText(fastify, options.bodyText)
  decorateRequestState(fastify)
  provideDefaultParsers(fastify)
}

/**
 * Registers `@weft/binding`: its settings, and body parsers for JSON, urlencoded forms, multipart
 * forms, XML, `+json` types and bodies without a Content-Type. The parsers are added to each
 * context when its first route is, for the types no parser covers by then: parsers of the app's
 * own and of `@fastify/formbody`/`@fastify/multipart`, registered before or after this plugin (and
 * before the routes), are kept. `bind(request)` also works without the plugin, with the defaults.
 * Route schemas written with its tags are validated and bound by Weft (an `onRoute` hook).
 */
export const weftBinding: FastifyPluginAsync<WeftBindingOptions> = fp(plugin, {
  fastify: '5.x',
  name: '@weft/binding',
})
