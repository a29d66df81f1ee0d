import type { TSchema } from 'typebox'
import { bindingSources, type SourceName } from './binding-source.js'
import { bodyBytes } from './body-bytes.js'
import { hasBody } from './content-type.js'
import { BindingSetupError, unescapePointer } from './errors.js'
import { defaultOf, planFor } from './plan.js'
import { readBody, readCookie, readHeader, readQuery, readUri, type Step, type Target } from './read.js'
import { setProp } from './schema.js'

/** The source each top-level field of an `all()` result came from (null prototype). */
export type Origins = Record<string, SourceName>

/** A fresh, empty {@link Origins}. */
export function noOrigins(): Origins {
  return Object.create(null) as Origins
}

/**
 * Names the value at a validation issue's path for `all()`'s messages: by the source its field
 * came from (`body/title`, `query/limit`), never "all"; a field no source had by its own path
 * (`id is required`); the whole value as `request`.
 */
export function subjectIn(origins: Origins): (path: string) => string {
  return (path) => {
    if (path === '') return 'request'
    const end = path.indexOf('/', 1)
    const top = unescapePointer(end === -1 ? path.slice(1) : path.slice(1, end))
    const source = origins[top]
    return source === undefined ? path.slice(1) : `${source}${path}`
  }
}

const orders = new WeakMap<TSchema, readonly SourceName[] | BindingSetupError>()

/** The sources `all()` binds for `schema` (see {@link bindingSources}), compiled once per schema. */
export function sourcesOf(schema: TSchema): readonly SourceName[] {
  let order = orders.get(schema)
  if (order === undefined) {
    try {
      order = bindingSources(schema)
    } catch (error) {
      order = error as BindingSetupError
    }
    orders.set(schema, order)
  }
  if (order instanceof BindingSetupError) throw order
  return order
}

/**
 * Fiber's `All()`: each source of the schema's order (default or `bindingSource`) fills the
 * top-level fields still empty; a field set by an earlier source is never overwritten; the body
 * counts only when it is non-empty and has a Content-Type; defaults apply last, to fields no
 * source had. `origins` records the source of each field, for the messages of validation.
 */
export async function bindAll(
  target: Target,
  schema: TSchema,
  files: boolean,
  origins: Origins,
): Promise<Record<string, unknown>> {
  const step: Step = { options: files ? undefined : { files: false }, defaults: false }
  const out: Record<string, unknown> = {}
  for (const name of sourcesOf(schema)) {
    if (name === 'body' && !bodyCounts(target)) continue
    const partial = (await readSource(target, name, schema, step)) as Record<string, unknown>
    for (const key of Object.keys(partial)) {
      if (!Object.hasOwn(out, key) && partial[key] !== undefined) {
        setProp(out, key, partial[key])
        origins[key] = name
      }
    }
  }
  const plan = planFor(schema, 'query', target.config)
  for (const field of plan.fields) {
    if (field.hasDefault && !Object.hasOwn(out, field.prop)) setProp(out, field.prop, defaultOf(field))
  }
  return out
}

/**
 * Whether the body is a source: non-empty, with a Content-Type. A binding parser that kept bytes
 * and produced no value read an empty JSON body (sent chunked, or coded), which is not one either.
 */
function bodyCounts(target: Target): boolean {
  const { request } = target
  return hasBody(request) && !(request.body === undefined && bodyBytes(request) !== undefined)
}

function readSource(target: Target, name: SourceName, schema: TSchema, step: Step): unknown {
  switch (name) {
    case 'uri':
      return readUri(target, schema, step)
    case 'body':
      return readBody(target, schema, step)
    case 'query':
      return readQuery(target, schema, step)
    case 'header':
      return readHeader(target, schema, step)
    default:
      return readCookie(target, schema, step)
  }
}
