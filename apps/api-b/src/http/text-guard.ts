import type { FastifyInstance } from 'fastify'
import { validationFailed } from './errors.js'

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

/**
 * The dotted path of the first string field of a parsed JSON body that holds a control character, or
 * undefined. Walked with a stack of its own, not recursion: a client may nest a body 100,000 deep.
 */
export function firstFieldWithControlCharacters(body: unknown): string | undefined {
  const pending: Pending[] = [{ value: body, key: '', parent: undefined }]
  while (pending.length > 0) {
    const entry = pending.pop() as Pending
    const { value } = entry
    if (typeof value === 'string') {
      if (!hasControl(value)) continue
      const path: string[] = []
      for (let at: Pending | undefined = entry; at?.parent; at = at.parent) path.push(at.key)
      return path.reverse().join('.')
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

/**
 * Rejects, on every route, a JSON body with a control character in any string (400 VALIDATION_FAILED, rule
 * `controlCharacters`) before a handler runs. One hook rather than a pattern per schema field, so a new
 * route or field is covered without a change.
 */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const field = request.body === undefined ? undefined : firstFieldWithControlCharacters(request.body)
    done(
      field === undefined
        ? undefined
        : validationFailed(field, 'controlCharacters', 'must not contain control characters'),
    )
  })
}
