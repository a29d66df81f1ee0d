import { Buffer } from 'node:buffer'
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { ResolvedConfig } from './config.js'
import { CursorInvalidError, CursorTooLongError, MAX_CURSOR_LENGTH } from './errors.js'
import type { SortField } from './sort.js'

/** Values carried by a cursor token: a JSON object (typically the last row's sort columns). */
export type CursorValues = Record<string, unknown>

// base64url, padded or not; Buffer's decoder silently skips other characters, so check first.
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/

// Fingerprints by canonical sort string: an API sees a handful of sorts, and hashing one costs more
// than the rest of encoding a cursor. Bounded, so arbitrary client sorts cannot grow it for ever.
const FINGERPRINT_CACHE_SIZE = 256
const fingerprints = new Map<string, string>()

/**
 * A short, stable digest of a sort list. Tokens made with `sortFingerprint` carry it so a
 * cursor cannot be replayed against another ordering.
 */
export function sortFingerprint(sort: readonly SortField[]): string {
  let canonical = ''
  for (const { field, order } of sort) canonical += `${JSON.stringify(field)}${order === 'desc' ? '-' : '+'}`
  let fingerprint = fingerprints.get(canonical)
  if (fingerprint === undefined) {
    fingerprint = createHash('sha256').update(canonical).digest().subarray(0, 9).toString('base64url')
    if (fingerprints.size >= FINGERPRINT_CACHE_SIZE) fingerprints.clear()
    fingerprints.set(canonical, fingerprint)
  }
  return fingerprint
}

const sign = (secret: Buffer, data: string): Buffer => createHmac('sha256', secret).update(data).digest()

/**
 * Encodes values as a token: base64url JSON, then `.fingerprint` and `.signature` when the
 * config asks for them. Throws `CursorTooLongError` (500) above 2048 characters.
 */
export function encodeCursor(values: CursorValues, config: ResolvedConfig, sort: readonly SortField[]): string {
  let token = Buffer.from(JSON.stringify(values), 'utf8').toString('base64url')
  if (config.sortFingerprint) token += `.${sortFingerprint(sort)}`
  const secret = config.secrets[0]
  if (secret !== undefined) token += `.${sign(secret, token).toString('base64url')}`
  if (token.length > MAX_CURSOR_LENGTH) throw new CursorTooLongError(token.length, 500)
  return token
}

function decodePayload(payload: string): CursorValues {
  if (payload === '' || !BASE64URL.test(payload) || payload.replace(/=+$/, '').length % 4 === 1) {
    throw new CursorInvalidError('not base64url')
  }
  let values: unknown
  try {
    values = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    throw new CursorInvalidError('not JSON')
  }
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw new CursorInvalidError('not a JSON object')
  }
  return values as CursorValues
}

function verify(secrets: readonly Buffer[], data: string, signature: string): boolean {
  if (!BASE64URL.test(signature)) return false
  const given = Buffer.from(signature, 'base64url')
  for (const secret of secrets) {
    const expected = sign(secret, data)
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true
  }
  return false
}

/**
 * Decodes and checks a request's token against the config that will read it: length, signature,
 * sort fingerprint (against `sort`, the request's parsed sort), then the JSON object itself.
 */
export function decodeCursor(token: string, config: ResolvedConfig, sort: readonly SortField[]): CursorValues {
  if (token.length > MAX_CURSOR_LENGTH) throw new CursorTooLongError(token.length)
  const signed = config.secrets.length > 0
  if (!signed && !config.sortFingerprint) return decodePayload(token)
  const parts = token.split('.')
  if (parts.length !== 1 + (signed ? 1 : 0) + (config.sortFingerprint ? 1 : 0)) {
    throw new CursorInvalidError(signed ? 'missing or malformed signature' : 'missing sort fingerprint')
  }
  if (signed && !verify(config.secrets, token.slice(0, token.lastIndexOf('.')), parts[parts.length - 1] as string)) {
    throw new CursorInvalidError('bad signature')
  }
  if (config.sortFingerprint && parts[1] !== sortFingerprint(sort)) {
    throw new CursorInvalidError('it was issued for a different sort')
  }
  return decodePayload(parts[0] as string)
}
