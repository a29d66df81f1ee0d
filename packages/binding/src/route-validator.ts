import type { FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { markBound, noteRouteSchema } from './bound-parts.js'
import { checkBound } from './check.js'
import { type BindingConfig, configOf } from './config.js'
import { isRecordSchema } from './decode-record.js'
import { checkDefaults } from './default-check.js'
import { BindSource } from './errors.js'
import { planFor } from './plan.js'
import { readBody, readHeader, readQuery, readUri, type Step, type Target } from './read.js'
import { validatorOf } from './validate.js'
import { secondaryTagOf } from './weft-keywords.js'
import { readTag, withWireNames } from './wire-names.js'

/** The parts of a request a route schema describes, as Fastify names them. */
export type RoutePart = 'body' | 'querystring' | 'params' | 'headers'

/** What a Fastify validator function returns: `{ value }` replaces the part, `{ error }` fails it. */
type Outcome = { value: unknown } | { error: unknown } | Promise<boolean>

/** A validator function as Fastify calls it (the second argument only when `schemaEnv` is set). */
export type PartValidator = ((data: unknown, context?: { parentData?: unknown }) => Outcome) & {
  schemaEnv: object
}

type Reader = (target: Target, schema: TSchema, step: Step) => unknown

const readers: Record<
  RoutePart,
  { read: Reader; source: BindSource; property: 'body' | 'query' | 'params' | 'headers' }
> = {
  querystring: { read: readQuery, source: BindSource.Query, property: 'query' },
  params: { read: readUri, source: BindSource.URI, property: 'params' },
  headers: { read: readHeader, source: BindSource.Header, property: 'headers' },
  body: { read: readBody, source: BindSource.Body, property: 'body' },
}

const usualStep: Step = { options: undefined, defaults: true }
const planTags: Record<RoutePart, string> = { querystring: 'query', params: 'uri', headers: 'header', body: 'json' }

// Fastify hands the request to a validator function that has a `schemaEnv` (as Ajv's have), so
// that it can replace the whole part: Weft needs it for bodies (Content-Type, kept bytes,
// multipart streams) and headers sent twice. Nothing else reads it.
const schemaEnv = Object.freeze({ weft: true })

/**
 * The validator of one route part written with Weft's tags: it binds the part exactly as
 * `bind().query()`/`uri()`/`header()`/`body()` would (same compiled plans, cached per schema
 * object, and the same `WEFT_*` errors), and Fastify puts the bound value on `request.query`,
 * `request.params`, `request.headers` or `request.body`.
 */
export function weftPartValidator(
  schema: TSchema,
  part: RoutePart,
  fallbackConfig: () => BindingConfig,
): PartValidator {
  const { read, source, property } = readers[part]
  noteRouteSchema(schema)
  const tag = secondaryTagOf(schema, part)
  const step: Step = tag === undefined ? usualStep : { options: { tag }, defaults: true }
  // a schema binding cannot read is a setup mistake: Fastify fails the boot naming the route
  if (part !== 'body' && !isRecordSchema(schema)) planFor(schema, tag ?? planTags[part], fallbackConfig())
  checkDefaults(schema, fallbackConfig())
  validatorOf(schema)
  const validate = (data: unknown, context?: { parentData?: unknown }): Outcome => {
    const request = requestOf(context, property, data)
    // the request's own configuration at the time it is served: the plugin's settings may change
    // after the route is declared (setParserDecoder), and bind() reads them the same way
    const config = request.server === undefined ? fallbackConfig() : configOf(request)
    const target: Target = { request, reply: undefined, config }
    try {
      const out = read(target, schema, step)
      if (!isThenable(out)) {
        const checked = checkBound(config, out, schema, source)
        if (!isThenable(checked)) {
          markBound(request, part)
          return { value: checked }
        }
        return settle(checked, request, part, property, (error) =>
          wireNamedError(error, schema, part, config, request, step),
        )
      }
      return settle(
        out.then((value) => checkBound(config, value, schema, source)),
        request,
        part,
        property,
        (error) => wireNamedError(error, schema, part, config, request, step),
      )
    } catch (error) {
      return { error: wireNamedError(error, schema, part, config, request, step) }
    }
  }
  return Object.assign(validate, { schemaEnv })
}

/** A failure with its validation paths under the names the client sent (see wire-names.ts). */
function wireNamedError(
  error: unknown,
  schema: TSchema,
  part: RoutePart,
  config: BindingConfig,
  request: FastifyRequest,
  step: Step,
): unknown {
  const base = part === 'body' ? 'body' : planTags[part]
  return withWireNames(error, schema, readTag(base, config, request, step.options?.tag))
}

/**
 * An asynchronous result (a multipart body, an async struct validator): Fastify reads only pass or
 * fail from it, so the bound value is put on the request here. A rejection is the validation error.
 */
async function settle(
  result: PromiseLike<unknown>,
  request: FastifyRequest,
  part: RoutePart,
  property: string,
  wireNamed: (error: unknown) => unknown,
): Promise<boolean> {
  let value: unknown
  try {
    value = await result
  } catch (error) {
    throw wireNamed(error)
  }
  ;(request as unknown as Record<string, unknown>)[property] = value
  markBound(request, part)
  return true
}

/**
 * The request being validated; when a caller gives only the value (`request.validateInput`, an
 * older Fastify), a stand-in that holds it, whose body is read as JSON.
 */
function requestOf(context: { parentData?: unknown } | undefined, property: string, data: unknown): FastifyRequest {
  const parent = context?.parentData
  if (typeof parent === 'object' && parent !== null && 'raw' in parent) return parent as FastifyRequest
  const standIn: Record<string, unknown> = { headers: { 'content-type': 'application/json' }, raw: {} }
  standIn[property] = data ?? undefined
  return standIn as unknown as FastifyRequest
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
