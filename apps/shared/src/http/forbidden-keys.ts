import { bodyBytes } from '@weft/binding'
import type { FastifyRequest } from 'fastify'
import type { FieldError } from './errors.js'

/** A value still to look at, with the way to it. */
type Pending = { value: unknown; path: string }

/**
 * The dotted path of the first key of a parsed body that Fastify's parser refuses as prototype poisoning
 * (`__proto__`, or `constructor` holding a `prototype`), or undefined. Walked with a stack of its own: a
 * client may nest a body 100,000 deep.
 */
function forbiddenKey(body: unknown): string | undefined {
  const pending: Pending[] = [{ value: body, path: '' }]
  while (pending.length > 0) {
    const { value, path } = pending.pop() as Pending
    if (value === null || typeof value !== 'object') continue
    for (const [key, item] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`
      const poisoned =
        key === '__proto__' ||
        (key === 'constructor' && item !== null && typeof item === 'object' && Object.hasOwn(item, 'prototype'))
      if (poisoned && !Array.isArray(value)) return at
      pending.push({ value: item, path: at })
    }
  }
  return undefined
}

/**
 * The JSON body is parsed by @weft/binding's parser (Fastify's, with prototype poisoning refused; an empty
 * body is no body; bytes that are not UTF-8 are a 400; a gzipped body is decoded first). Fastify says "not
 * valid JSON" for a body it refuses as poisoning too: when the bytes binding kept are valid JSON with a
 * `__proto__` or `constructor` key, this is the field at fault, for the 400 VALIDATION_FAILED that names it instead.
 */
export function forbiddenKeyProblem(thrown: unknown, request: FastifyRequest): FieldError | undefined {
  if ((thrown as { code?: unknown } | null)?.code !== 'FST_ERR_CTP_INVALID_JSON_BODY') return undefined
  const bytes = bodyBytes(request)
  if (bytes === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(bytes.toString())
  } catch {
    return undefined
  }
  const found = forbiddenKey(parsed)
  return found === undefined
    ? undefined
    : { field: found, rule: 'forbiddenKey', message: 'is not an accepted field name' }
}
