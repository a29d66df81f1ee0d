import { escapePointer, ValidationError } from './errors.js'

/** Which keys the app's poisoning settings refuse (Fastify's `onProtoPoisoning`/`onConstructorPoisoning`). */
export interface RefusedKeys {
  proto: boolean
  constructor: boolean
}

/** A value still to look at: its key, whether that key is an object's (not an array index), its pointer. */
type Pending = { value: unknown; key: string; inObject: boolean; path: string }

function isRefused(entry: Pending, refused: RefusedKeys): boolean {
  if (!entry.inObject) return false
  if (entry.key === '__proto__') return refused.proto
  const { value } = entry
  return (
    entry.key === 'constructor' &&
    refused.constructor &&
    value !== null &&
    typeof value === 'object' &&
    Object.hasOwn(value, 'prototype')
  )
}

/**
 * The JSON Pointer of the first key (in document order) of `parsed` that Fastify's parser refuses
 * as prototype poisoning: `__proto__`, or `constructor` holding an object with a `prototype` key.
 * Walked with a stack of its own: a body may nest thousands of levels.
 */
export function firstRefusedKey(parsed: unknown, refused: RefusedKeys): string | undefined {
  const pending: Pending[] = [{ value: parsed, key: '', inObject: false, path: '' }]
  while (pending.length > 0) {
    const entry = pending.pop() as Pending
    if (isRefused(entry, refused)) return entry.path
    const { value, path } = entry
    if (value === null || typeof value !== 'object') continue
    const inObject = !Array.isArray(value)
    const keys = Object.keys(value)
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string
      const item = (value as Record<string, unknown>)[key]
      pending.push({ value: item, key, inObject, path: `${path}/${escapePointer(key)}` })
    }
  }
  return undefined
}

/**
 * Fastify's parser answers a body it refuses as poisoning "not valid JSON", like a truncated one.
 * When `text` is valid JSON with a refused key, this is the 400 that names the key instead: a
 * `ValidationError` (`body`, keyword `forbiddenKey`). Only a refused body pays for it (one more
 * parse and a walk, both linear in its size).
 */
export function refusedKeyError(text: string, refused: RefusedKeys): ValidationError | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  const path = firstRefusedKey(parsed, refused)
  return path === undefined
    ? undefined
    : new ValidationError('body', [
        { instancePath: path, keyword: 'forbiddenKey', message: 'must not be used as a field name', params: {} },
      ])
}
