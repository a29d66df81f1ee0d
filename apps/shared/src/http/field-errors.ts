import { patternMessages } from '../schemas/rules.js'
import type { FieldError } from './errors.js'

/** One failed constraint as Fastify and @weft/binding's `ValidationError` report it (Ajv's shape). */
export interface ValidationEntry {
  instancePath?: string
  keyword?: string
  message?: string
  params?: Record<string, unknown>
}

const typeNames: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
}

const limitOf = (params: Record<string, unknown>) => Number(params.limit)

/** A failed rule in words, for people: never a pattern, a schema keyword or a validator's phrasing. */
function ruleMessage(keyword: string, params: Record<string, unknown>): string {
  switch (keyword) {
    case 'required':
      return 'is required'
    case 'additionalProperties':
      return 'is not an accepted field'
    case 'minLength':
      return limitOf(params) === 1 ? 'must not be empty' : `must be at least ${limitOf(params)} characters`
    case 'maxLength':
      return `must be at most ${limitOf(params)} characters`
    case 'minimum':
      return `must be at least ${limitOf(params)}`
    case 'maximum':
      return `must be at most ${limitOf(params)}`
    case 'type':
      return `must be ${typeNames[String(params.type)] ?? String(params.type)}`
    case 'pattern':
      return patternMessages.get(String(params.pattern)) ?? 'holds characters that are not allowed'
    case 'minProperties':
      return 'must name at least one field'
    case 'format':
      return `must be a valid ${String(params.format)}`
    case 'controlCharacters':
      return 'must not contain control characters'
    case 'invisibleCharacters':
      return 'must not contain invisible characters such as zero-width spaces'
    case 'forbiddenKey':
      return 'is not an accepted field name'
    case 'const':
    case 'enum':
    case 'anyOf':
      return 'is not one of the accepted values'
    default:
      return 'is invalid'
  }
}

/** Names listed in a params entry: Ajv gives one string, TypeBox an array. */
function namesIn(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

function expand(entry: ValidationEntry): FieldError[] {
  const base = (entry.instancePath ?? '').split('/').filter(Boolean)
  const params = entry.params ?? {}
  // TypeBox reports an unexpected property a second time as the `false` schema it failed.
  const keyword = entry.keyword === 'boolean' ? 'additionalProperties' : (entry.keyword ?? 'invalid')
  const names =
    keyword === 'required'
      ? namesIn(params.missingProperty ?? params.requiredProperties)
      : keyword === 'additionalProperties'
        ? namesIn(params.additionalProperty ?? params.additionalProperties)
        : []
  const message = ruleMessage(keyword, params)
  if (names.length === 0) return [{ field: base.join('.'), rule: keyword, message }]
  return names.map((name) => ({ field: [...base, name].join('.'), rule: keyword, message }))
}

/** One entry per field and failed rule, in words, without duplicates. */
export function fieldErrors(entries: readonly ValidationEntry[]): FieldError[] {
  const seen = new Set<string>()
  return entries.flatMap(expand).filter((e) => {
    const key = `${e.field}\u0000${e.rule}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * A body field @weft/binding could not take: a key the schema does not name (`unknown key "role"`), or a value
 * of the wrong JSON type (`"3" is not an integer`), said as the rule it breaks.
 */
export function bindingFieldError(field: string, cause: unknown): FieldError {
  const text = cause instanceof Error ? cause.message : ''
  if (text.startsWith('unknown key'))
    return { field, rule: 'additionalProperties', message: 'is not an accepted field' }
  const expected = / is not (an? [a-z]+|null)$/.exec(text)?.[1]
  return { field, rule: 'type', message: expected === undefined ? 'has the wrong type' : `must be ${expected}` }
}
