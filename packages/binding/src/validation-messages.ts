import type { ValidationIssue } from './errors.js'

// TypeBox reports failures as Ajv does ("must match pattern \"^[A-Z]{3}$\"", "must match a schema
// in anyOf"): words for schema authors. A client reads these messages, so each is rewritten in
// plain words; `keyword` and `params` stay as TypeBox gave them, for programs.

const articles: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'a list',
  null: 'null',
}

const formats: Record<string, string> = {
  email: 'an email address',
  uri: 'a URL',
  url: 'a URL',
  uuid: 'a UUID',
  'date-time': 'a date and time (like 2026-01-31T12:00:00Z)',
  date: 'a date (like 2026-01-31)',
  time: 'a time (like 12:00:00Z)',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  hostname: 'a host name',
}

const quoted = (value: unknown): string => JSON.stringify(value) ?? String(value)

/** `1 item`, `2 items`. */
const count = (limit: unknown, noun: string): string => `${String(limit)} ${noun}${Number(limit) === 1 ? '' : 's'}`

/** `a`, `a and b`, `a, b and c` (or with `or`). */
function joined(names: unknown[], conjunction: string): string {
  const words = names.map(String)
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`
}
const andList = (names: unknown[]): string => joined(names, 'and')
const orList = (names: unknown[]): string => joined(names, 'or')

/** What one alternative of a union accepts, from its failure at the union's own path. */
function alternative(issue: ValidationIssue): string | undefined {
  if (issue.keyword === 'const') return quoted(issue.params.allowedValue)
  if (issue.keyword === 'type') return articles[String(issue.params.type)] ?? String(issue.params.type)
  return undefined
}

/**
 * What a union accepts, from its alternatives' failures at its path: `must be "a" or "b"`,
 * `must be a string or null` (a literal's own type failure is left out: `2` says it). Any other
 * kind of alternative gives the general message.
 */
function unionMessage(union: ValidationIssue, branches: ValidationIssue[]): string {
  const literalTypes = new Set<string>(
    branches.filter((b) => b.keyword === 'const').map((b) => typeof b.params.allowedValue),
  )
  const kept = branches.filter(
    (b) => !(b.keyword === 'type' && literalTypes.has(b.params.type === 'integer' ? 'number' : String(b.params.type))),
  )
  const accepted = kept.map(alternative)
  if (accepted.length === 0 || accepted.includes(undefined)) return plain(union)
  const words = [...new Set(accepted as string[])]
  return `must be ${orList(words)}`
}

/** One issue's message in plain words. */
function plain(issue: ValidationIssue): string {
  const { keyword, params } = issue
  switch (keyword) {
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : [params.type]
      return `must be ${orList(types.map((type) => articles[String(type)] ?? String(type)))}`
    }
    case 'const':
      return `must be ${quoted(params.allowedValue)}`
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map(quoted).join(', ')}`
    case 'pattern':
      return 'is not in the expected format'
    case 'format':
      return `must be ${formats[String(params.format)] ?? `a valid ${String(params.format)}`}`
    case 'multipleOf':
      return `must be a multiple of ${String(params.multipleOf)}`
    case 'additionalProperties':
      return `must not have the field${(params.additionalProperties as unknown[]).length === 1 ? '' : 's'} ${(params.additionalProperties as unknown[]).join(', ')}`
    case 'anyOf':
    case 'oneOf':
      return 'is not one of the accepted forms'
    case 'not':
      return 'is not an accepted value'
    case 'required': {
      const names = (params.requiredProperties as unknown[] | undefined) ?? []
      return `${andList(names)} ${names.length === 1 ? 'is' : 'are'} required`
    }
    case 'minLength':
      return Number(params.limit) === 1
        ? 'must not be empty'
        : `must be at least ${count(params.limit, 'character')} long`
    case 'maxLength':
      return `must be at most ${count(params.limit, 'character')} long`
    case 'minimum':
      return `must be at least ${String(params.limit)}`
    case 'maximum':
      return `must be at most ${String(params.limit)}`
    case 'exclusiveMinimum':
      return `must be more than ${String(params.limit)}`
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}`
    case 'minItems':
      return Number(params.limit) === 1 ? 'must not be empty' : `must have at least ${count(params.limit, 'item')}`
    case 'maxItems':
      return `must have at most ${count(params.limit, 'item')}`
    case 'uniqueItems':
      return 'must not list the same item twice'
    case 'minProperties':
      return Number(params.limit) === 1 ? 'must not be empty' : `must have at least ${count(params.limit, 'field')}`
    case 'maxProperties':
      return `must have at most ${count(params.limit, 'field')}`
    case 'dependencies':
    case 'dependentRequired':
      return `must have ${andList((params.dependencies as unknown[] | undefined) ?? [])} when it has ${String(params.property)}`
    case 'contains':
      return 'must include an accepted item'
    case 'propertyNames':
      return `has field names that are not accepted: ${((params.propertyNames as unknown[] | undefined) ?? []).join(', ')}`
    case 'unevaluatedProperties':
      return 'must not have other fields'
    case 'unevaluatedItems':
      return 'must not have more items'
    case 'boolean':
      return 'is not accepted'
    case '~refine':
      // the schema author's own words
      return issue.message
    default:
      // a keyword without words of its own: never the validator's phrasing
      return 'is not valid'
  }
}

/**
 * The issues of one failed check with plain messages. A union's failure is one issue that says
 * what its alternatives accept (`must be one of "a", "b"`, `must be a string or null`), not one per
 * alternative; the "not allowed" entries of each extra field go with their object's issue.
 */
export function plainIssues(issues: ValidationIssue[]): ValidationIssue[] {
  const unions = new Set(issues.filter((i) => i.keyword === 'anyOf').map((i) => i.instancePath))
  const closed = new Set(issues.filter((i) => i.keyword === 'additionalProperties').map((i) => i.instancePath))
  const out: ValidationIssue[] = []
  for (const issue of issues) {
    const path = issue.instancePath
    if (issue.keyword === 'boolean' && closed.has(path.slice(0, path.lastIndexOf('/')))) continue
    if (unions.has(path) && issue.keyword !== 'anyOf') continue
    if (issue.keyword === 'anyOf') {
      out.push({
        ...issue,
        message: unionMessage(
          issue,
          issues.filter((i) => i !== issue && i.instancePath === path),
        ),
      })
      continue
    }
    out.push({ ...issue, message: plain(issue) })
  }
  return out
}
