import { Buffer } from 'node:buffer'
import { MAX_PASSWORD_BYTES } from '@weft/api-shared/schemas/rules'
import { validationFailed } from '../http/errors.js'

/** Emails are compared and stored trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** Rejects a password over 72 bytes, which the character-counting schema lets through for non-ASCII text. */
export function assertPasswordBytes(password: string, field = 'password'): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw validationFailed([
      { field, rule: 'maxBytes', message: `must be at most ${MAX_PASSWORD_BYTES} bytes in UTF-8` },
    ])
  }
}
