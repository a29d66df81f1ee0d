import { Buffer } from 'node:buffer'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasRoutes } from './declared-routes.js'
import { escapePointer, ValidationError, type ValidationIssue } from './errors.js'

/**
 * What `bodyText` checks in the strings of a parsed JSON body before validation.
 *
 * @example
 * await app.register(weftBinding, {
 *   bodyText: { multiLineFields: ['description'], identifierFields: ['email', 'username'] },
 * })
 */
export interface BodyTextRules {
  /** Fields (by key, at any depth) whose strings may hold tabs and line breaks; others refuse them. */
  multiLineFields?: readonly string[]
  /**
   * Fields (by key, at any depth) that identify something, such as an email or a username: put in
   * Unicode NFC, and refused when they hold an invisible format character (zero-width spaces and
   * joiners, direction marks), which would let two look-alike values be different.
   */
  identifierFields?: readonly string[]
  /** The most problems one answer lists (default 20; 1 stops at the first). */
  maxProblems?: number
}

/** Tab, line feed and carriage return: the controls a multi-line string may hold. */
const lineControls = new Set([0x09, 0x0a, 0x0d])
const invisibleCharacter = /\p{Cf}/u
/**
 * More than 30 combining marks in a row: Unicode's stream-safe limit (UAX #15, §13). No identifier
 * needs that many, and it is what keeps NFC cheap: V8 puts a run of marks in order by insertion,
 * so one run of 100,000 costs seconds, and runs of at most 30 cost a few steps a character.
 */
const longMarkRun = /\p{M}{31}/u

/** A C0 control or DEL: never meaningful in a one-line string, and NUL cannot be stored in PostgreSQL text. */
function hasControl(value: string, multiLine: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if ((code <= 0x1f || code === 0x7f) && !(multiLine && lineControls.has(code))) return true
  }
  return false
}

/**
 * A value still to look at: `name` is the field name the rules match (an array's items have the
 * array's), `key` its JSON Pointer segment, `holder[slot]` where an identifier is written back in
 * NFC. Its path is built only for a string that fails.
 */
type Pending = {
  value: unknown
  name: string
  key: string
  parent: Pending | undefined
  holder: Record<string, unknown> | undefined
  slot: string
}

function pointerOf(entry: Pending): string {
  let path = ''
  for (let at: Pending | undefined = entry; at?.parent; at = at.parent) path = `/${escapePointer(at.key)}${path}`
  return path
}

interface CompiledRules {
  multiLine: ReadonlySet<string>
  identifiers: ReadonlySet<string>
  max: number
}

const noFields: ReadonlySet<string> = new Set()

function problemOf(
  value: string,
  name: string,
  rules: CompiledRules,
): Omit<ValidationIssue, 'instancePath'> | undefined {
  if (hasControl(value, rules.multiLine.has(name))) {
    return { keyword: 'controlCharacters', message: 'must not contain control characters', params: {} }
  }
  if (rules.identifiers.has(name)) {
    if (invisibleCharacter.test(value)) {
      return { keyword: 'invisibleCharacters', message: 'must not contain invisible characters', params: {} }
    }
    if (longMarkRun.test(value)) {
      return {
        keyword: 'combiningMarks',
        message: 'must not contain more than 30 combining marks in a row',
        params: { limit: 30 },
      }
    }
  }
  return undefined
}

/** What `@fastify/multipart`'s `attachFieldsToBody: true` puts in the body for one part. */
type Part = { type: 'field' | 'file'; value?: unknown }

function partOf(value: object): Part | undefined {
  const { type } = value as { type?: unknown }
  return (type === 'field' || type === 'file') && typeof (value as { fieldname?: unknown }).fieldname === 'string'
    ? (value as Part)
    : undefined
}

/**
 * The issues of a body's strings (at most `rules.max`), putting identifier fields in NFC on the way.
 * Strings of `typed` top-level fields are left to validation, which names their wrong type. With
 * `multipartParts` (a body `@fastify/multipart` attached), a field part is its value and a file part
 * is skipped. Walked with a stack of its own, not recursion: a client may nest a body 100,000 deep;
 * an object is looked at once, so a parser's objects that refer to each other end the walk too.
 */
export function bodyTextIssues(
  body: unknown,
  rules: CompiledRules,
  typed: ReadonlySet<string> = noFields,
  multipartParts = false,
) {
  const issues: ValidationIssue[] = []
  const seen = new Set<object>()
  const pending: Pending[] = [{ value: body, name: '', key: '', parent: undefined, holder: undefined, slot: '' }]
  while (pending.length > 0 && issues.length < rules.max) {
    const entry = pending.pop() as Pending
    const { value, parent } = entry
    if (typeof value === 'string') {
      if (parent?.parent === undefined && typed.has(entry.key)) continue
      const problem = problemOf(value, entry.name, rules)
      if (problem !== undefined) issues.push({ instancePath: pointerOf(entry), ...problem })
      else if (entry.holder !== undefined && rules.identifiers.has(entry.name)) {
        entry.holder[entry.slot] = value.normalize('NFC')
      }
      continue
    }
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || seen.has(value)) continue
    seen.add(value)
    const part = multipartParts && parent !== undefined ? partOf(value) : undefined
    if (part !== undefined) {
      if (part.type === 'field') {
        pending.push({ ...entry, value: part.value, holder: part as Record<string, unknown>, slot: 'value' })
      }
      continue
    }
    const isArray = Array.isArray(value)
    const keys = Object.keys(value)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string
      const holder = value as Record<string, unknown>
      pending.push({ value: holder[key], name: isArray ? entry.name : key, key, parent: entry, holder, slot: key })
    }
  }
  return issues
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

/** Checks the rules, so that a mistake in them fails at boot. */
export function compileBodyText(rules: BodyTextRules): CompiledRules {
  const { multiLineFields = [], identifierFields = [], maxProblems = 20 } = rules
  for (const [name, fields] of [
    ['multiLineFields', multiLineFields],
    ['identifierFields', identifierFields],
  ] as const) {
    if (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string' || field === '')) {
      throw new TypeError(`@weft/binding: bodyText.${name} must be a list of field names`)
    }
  }
  if (!Number.isInteger(maxProblems) || maxProblems < 1) {
    throw new TypeError('@weft/binding: bodyText.maxProblems must be a whole number of at least 1')
  }
  return { multiLine: new Set(multiLineFields), identifiers: new Set(identifierFields), max: maxProblems }
}

/** Marks, in a route's `config`, that the route checks its body itself (see `installBodyText`). */
const checkedByRoute = Symbol('weft.bodyText')

/**
 * Refuses a parsed body whose strings break `rules` with a 400 `ValidationError` (`body`, keyword
 * `controlCharacters` or `invisibleCharacters`), before the route's validation and any handler: one
 * check instead of a pattern on each field, so new routes and fields are covered without a change.
 *
 * The check is the first of each route's own `preValidation` hooks, added as the route is declared:
 * a route's hooks run after every instance hook, so a plugin that fills the body in an instance
 * hook of its own (`@fastify/multipart`'s `attachFieldsToBody`) has done so, whichever of the two
 * was registered first. Routes declared before this plugin loaded (a registration not awaited) are
 * checked by an instance hook instead.
 */
export function installBodyText(fastify: FastifyInstance, rules: BodyTextRules): void {
  const compiled = compileBodyText(rules)
  const check = (request: FastifyRequest, typed: ReadonlySet<string>, done: (error?: Error) => void) => {
    const issues = issuesOfRequest(request, compiled, typed)
    done(issues.length > 0 ? new ValidationError('body', issues) : undefined)
  }
  fastify.addHook('onRoute', (route) => {
    const own = route.preValidation
    const typed = typedFields(route.schema?.body)
    const checkBodyText = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) =>
      check(request, typed, done)
    route.preValidation = own === undefined ? [checkBodyText] : [checkBodyText, ...(Array.isArray(own) ? own : [own])]
    route.config = { ...route.config, [checkedByRoute]: true } as typeof route.config
  })
  if (!hasRoutes(fastify)) return
  fastify.addHook('preValidation', (request, _reply, done) => {
    const config = request.routeOptions.config as unknown as Record<symbol, unknown>
    if (config[checkedByRoute] === true) done()
    else check(request, typedFields(request.routeOptions.schema?.body), done)
  })
}

function issuesOfRequest(request: FastifyRequest, rules: CompiledRules, typed: ReadonlySet<string>) {
  const { body } = request
  // bytes a parser kept for binding to decode are not text yet; a body that is one text
  // (text/plain) is no field, and its lines are its own
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return []
  const isMultipart = (request as { isMultipart?: () => boolean }).isMultipart
  const parts = typeof isMultipart === 'function' && isMultipart.call(request)
  return bodyTextIssues(body, rules, typed, parts)
}
