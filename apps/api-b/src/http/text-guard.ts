import type { FastifyInstance } from 'fastify'
import type { FieldError } from './envelope.js'
import { validationFailed } from './errors.js'

/**
 * Fields that identify an account (unique, looked up at login): compared and stored in Unicode NFC, so `é` typed
 * as one code point or as `e` and a combining accent is the same account; and free of invisible format
 * characters (category Cf: zero-width spaces and joiners, direction marks), which would make two look-alikes.
 */
const identifierFields = new Set(['email', 'username'])
const invisibleCharacter = /\p{Cf}/u

/**
 * True when the string holds a C0 control or DEL: no field of this API (usernames, emails, passwords) means
 * one, and PostgreSQL cannot store NUL in text (SQLSTATE 22021).
 */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code <= 0x1f || code === 0x7f) return true
  }
  return false
}

/** A value still to look at, with the way to it (its path is built only for a string that fails). */
type Pending = { value: unknown; key: string; parent: Pending | undefined }

const pathOf = (entry: Pending): string[] => {
  const path: string[] = []
  for (let at: Pending | undefined = entry; at?.parent; at = at.parent) path.push(at.key)
  return path.reverse()
}

/** Puts `value` in the place of the entry's value, in its parent object. */
const replace = (entry: Pending, value: string) => {
  const parent = entry.parent?.value
  if (parent !== null && typeof parent === 'object') (parent as Record<string, unknown>)[entry.key] = value
}

/** What is wrong with one string of the body, if anything. */
function textProblem(value: string, key: string): Omit<FieldError, 'field'> | undefined {
  if (hasControl(value)) return { rule: 'controlCharacters', message: 'must not contain control characters' }
  if (identifierFields.has(key) && invisibleCharacter.test(value)) {
    return { rule: 'invisibleCharacters', message: 'must not contain invisible characters such as zero-width spaces' }
  }
  return undefined
}

const noFields: ReadonlySet<string> = new Set()

/**
 * The first string field of a parsed JSON body that holds a control character, or an invisible one in an email
 * or a username, or undefined; emails and usernames are put in NFC on the way. Strings in `typed` top-level
 * fields (those the route's schema says are not strings) are left for the binding to refuse as the wrong type.
 * Walked with a stack of its own, not recursion: a client may nest a body 100,000 deep.
 */
export function firstTextProblem(body: unknown, typed: ReadonlySet<string> = noFields): FieldError | undefined {
  const pending: Pending[] = [{ value: body, key: '', parent: undefined }]
  while (pending.length > 0) {
    const entry = pending.pop() as Pending
    const { value } = entry
    if (typeof value === 'string') {
      if (entry.parent?.parent === undefined && typed.has(entry.key)) continue
      const problem = textProblem(value, entry.key)
      if (problem) return { field: pathOf(entry).join('.'), ...problem }
      if (identifierFields.has(entry.key)) replace(entry, value.normalize('NFC'))
      continue
    }
    if (value !== null && typeof value === 'object') {
      const children = Array.isArray(value)
        ? value.map((item, index) => [String(index), item] as const)
        : Object.entries(value)
      for (let i = children.length - 1; i >= 0; i--) {
        const [key, item] = children[i] as readonly [string, unknown]
        pending.push({ value: item, key, parent: entry })
      }
    }
  }
  return undefined
}

/** The top-level fields a body schema types as something other than a string, by schema. */
const typedFieldsOf = new WeakMap<object, ReadonlySet<string>>()

function typedFields(schema: unknown): ReadonlySet<string> {
  if (schema === null || typeof schema !== 'object') return noFields
  let fields = typedFieldsOf.get(schema)
  if (fields === undefined) {
    const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}
    fields = new Set(
      Object.entries(properties)
        .filter(([, property]) => property.type !== undefined && property.type !== 'string')
        .map(([name]) => name),
    )
    typedFieldsOf.set(schema, fields)
  }
  return fields
}

/**
 * Rejects, on every route, a JSON body with a control character in any string (400 VALIDATION_FAILED, rule
 * `controlCharacters`), or an invisible one in an email or a username (rule `invisibleCharacters`), before a
 * handler runs; and puts emails and usernames in NFC before they are validated, compared or stored. One hook
 * rather than a pattern per schema field, so a new route or field is covered without a change.
 */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const typed = typedFields(request.routeOptions.schema?.body)
    const problem = request.body === undefined ? undefined : firstTextProblem(request.body, typed)
    done(problem === undefined ? undefined : validationFailed(problem.field, problem.rule, problem.message))
  })
}
