import type { FastifyInstance } from 'fastify'
import type { FieldError } from './envelope.js'
import { validationFailed } from './errors.js'

/** Body fields that hold free text over several lines; every other string field is single-line. */
const multiLineFields = new Set(['description'])

/** Tab, line feed and carriage return: the controls a multi-line text may hold. */
const lineControls = new Set([0x09, 0x0a, 0x0d])

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

/** A value still to look at, with the way to it (its path is built only for a string that fails). */
type Pending = { value: unknown; key: string; parent: Pending | undefined }

const pathOf = (entry: Pending): string[] => {
  const path: string[] = []
  for (let at: Pending | undefined = entry; at?.parent; at = at.parent) path.push(at.key)
  return path.reverse()
}

/**
 * The fields of a parsed JSON body whose strings hold control characters (empty when there are none),
 * at most 20. Walked with a stack of its own, not recursion: a client may nest a body 100,000 deep.
 */
export function controlCharacterProblems(body: unknown): FieldError[] {
  const found: FieldError[] = []
  const pending: Pending[] = [{ value: body, key: '', parent: undefined }]
  while (pending.length > 0 && found.length < 20) {
    const entry = pending.pop() as Pending
    const { value } = entry
    if (typeof value === 'string') {
      if (hasControl(value, multiLineFields.has(entry.key))) {
        found.push({
          field: pathOf(entry).join('.'),
          rule: 'controlCharacters',
          message: 'must not contain control characters',
        })
      }
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

/**
 * Rejects, on every route, a JSON body with a control character in a string (400 VALIDATION_FAILED,
 * rule `controlCharacters`) before any handler runs, so no route can pass one to the database or a log.
 * One hook instead of a pattern on each schema field: new routes and fields are covered without a change.
 */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const problems = request.body === undefined ? [] : controlCharacterProblems(request.body)
    done(problems.length > 0 ? validationFailed(problems) : undefined)
  })
}
