import { Buffer } from 'node:buffer'
import { validationFailed } from '../http/errors.js'

/** Emails are compared and stored trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** Longest password in UTF-8 bytes (bcrypt's historical limit; the schema's `maxLength` counts characters). */
export const MAX_PASSWORD_BYTES = 72

/** Rejects a password over 72 bytes, which the character-counting schema lets through for non-ASCII text. */
export function assertPasswordBytes(password: string, field = 'password'): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw validationFailed([
      { field, rule: 'maxBytes', message: `must not be longer than ${MAX_PASSWORD_BYTES} bytes` },
    ])
  }
}
