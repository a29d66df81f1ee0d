import type { FastifyInstance } from 'fastify'
import type { FieldError } from './errors.js'

/** Tab, line feed and carriage return: the controls a multi-line text may hold. */
const lineControls = new Set([0x09, 0x0a, 0x0d])

/**
 * Fields that identify an account (unique, looked up at login): compared and stored in Unicode NFC, so `é` typed
 * as one code point or as `e` and a combining accent is the same account; and free of invisible format
 * characters (category Cf: zero-width spaces and joiners, direction marks), which would make two look-alikes.
 */
const identifierFields = new Set(['email', 'username'])
const invisibleCharacter = /\p{Cf}/u

/**
 * True when the string holds a C0 control or DEL: never meaningful in a single-line field, and NUL cannot be
 * stored in PostgreSQL text at all (SQLSTATE 22021/22P05). Multi-line text may hold tabs and line breaks.
 */
function hasControl(value: string, multiLine: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if ((code <= 0x1f || code === 0x7f) && !(multiLine && lineControls.has(code))) return true
  }
  return false
}

const noFields: ReadonlySet<string> = new Set()

/** What differs between the APIs: which fields are multi-line text, and how many problems one answer lists. */
export interface TextGuardOptions {
  /** Body fields that hold free text over several lines (tabs and line breaks allowed); others are single-line. */
  multiLineFields?: ReadonlySet<string>
  /** The most problems listed (20 by default); 1 stops at the first. */
  max?: number
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
function textProblem(
  value: string,
  key: string,
  multiLineFields: ReadonlySet<string>,
): Omit<FieldError, 'field'> | undefined {
  if (hasControl(value, multiLineFields.has(key))) {
    return { rule: 'controlCharacters', message: 'must not contain control characters' }
  }
  if (identifierFields.has(key) && invisibleCharacter.test(value)) {
    return { rule: 'invisibleCharacters', message: 'must not contain invisible characters such as zero-width spaces' }
  }
  return undefined
}

/**
 * The fields of a parsed JSON body whose strings hold control characters, or invisible ones in an email or a
 * username (empty when there are none), at most `options.max`; emails and usernames are put in NFC on the way. Strings in
 * `typed` top-level fields (those the route's schema says are not strings) are left for the binding to refuse as
 * the wrong type. Walked with a stack of its own, not recursion: a client may nest a body 100,000 deep.
 */
export function controlCharacterProblems(
  body: unknown,
  typed: ReadonlySet<string> = noFields,
  options: TextGuardOptions = {},
): FieldError[] {
  const { multiLineFields = noFields, max = 20 } = options
  const found: FieldError[] = []
  const pending: Pending[] = [{ value: body, key: '', parent: undefined }]
  while (pending.length > 0 && found.length < max) {
    const entry = pending.pop() as Pending
    const { value } = entry
    if (typeof value === 'string') {
      if (entry.parent?.parent === undefined && typed.has(entry.key)) continue
      const problem = textProblem(value, entry.key, multiLineFields)
      if (problem) found.push({ field: pathOf(entry).join('.'), ...problem })
      else if (identifierFields.has(entry.key)) replace(entry, value.normalize('NFC'))
    } else if (value !== null && typeof value === 'object') {
      const children = Array.isArray(value)
        ? value.map((item, index) => [String(index), item] as const)
        : Object.entries(value)
      for (let i = children.length - 1; i >= 0; i--) {
        const [key, item] = children[i] as readonly [string, unknown]
        pending.push({ value: item, key, parent: entry })
      }
    }
  }
  return found
}

/** The top-level fields a body schema types as something other than a string (`amount`), by schema. */
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
 * Rejects, on every route, a JSON body with a control character in a string (400 VALIDATION_FAILED,
 * rule `controlCharacters`), or an invisible one in an email or a username (rule `invisibleCharacters`), before
 * any handler runs, so no route can pass one to the database or a log; and puts emails and usernames in NFC
 * before they are validated, compared or stored. One hook instead of a pattern on each schema field: new routes
 * and fields are covered without a change. `reject` makes the app's VALIDATION_FAILED error of the problems.
 */
export function installTextGuard(
  app: FastifyInstance,
  reject: (problems: [FieldError, ...FieldError[]]) => Error,
  options: TextGuardOptions = {},
): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const typed = typedFields(request.routeOptions.schema?.body)
    const problems = request.body === undefined ? [] : controlCharacterProblems(request.body, typed, options)
    done(problems.length > 0 ? reject(problems as [FieldError, ...FieldError[]]) : undefined)
  })
}
