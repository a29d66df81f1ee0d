import { Buffer } from 'node:buffer'

/** The least `SECRET` length: an HS256 key shorter than the hash output weakens it. */
export const MIN_SECRET_BYTES = 32
/** The fewest distinct characters a `SECRET` may have (hex output of a random generator has 16). */
export const MIN_DISTINCT_CHARACTERS = 12

/**
 * Values this repository ships or has shipped as examples (`.env.example` files, compose, READMEs): anyone
 * who reads the repository knows them, so a server using one lets anyone sign tokens for any user.
 */
export const SHIPPED_SECRETS: ReadonlySet<string> = new Set([
  'replace-with-at-least-32-bytes-of-random-a',
  'replace-with-at-least-32-bytes-of-random-b',
  '<SECRET>',
  'change-me-a',
  'change-me-b',
])

/** Words of a placeholder, not of a generated key. */
const PLACEHOLDER = /replace|change-?me|placeholder|example|your[-_ ]?secret|xxxxxxxx/i

const GENERATE = "generate one with: node -e \"console.log(require('crypto').randomBytes(48).toString('base64url'))\""

/** True when the whole string is one shorter unit repeated (`abcabcabc...`). */
function isRepetition(value: string): boolean {
  for (let unit = 1; unit <= value.length / 2; unit++) {
    if (value.length % unit === 0 && value.slice(unit) === value.slice(0, -unit)) return true
  }
  return false
}

/**
 * Why `secret` is not fit to sign tokens, or undefined when it is: shorter than 32 bytes, a value shipped in
 * the repository or a placeholder, a repeated pattern, or too few distinct characters. The value itself is
 * never part of the answer (it ends up in a log). `lengthRule` is each app's wording of the length rule.
 */
export function secretProblem(
  secret: string,
  lengthRule = `be set to at least ${MIN_SECRET_BYTES} bytes`,
): string | undefined {
  const bytes = Buffer.byteLength(secret, 'utf8')
  if (bytes < MIN_SECRET_BYTES) return `SECRET must ${lengthRule} (got ${bytes}); ${GENERATE}`
  if (SHIPPED_SECRETS.has(secret.trim()) || PLACEHOLDER.test(secret)) {
    return `SECRET is an example value from the repository, known to anyone; ${GENERATE}`
  }
  if (isRepetition(secret)) return `SECRET is a repeated pattern; ${GENERATE}`
  const distinct = new Set(secret).size
  if (distinct < MIN_DISTINCT_CHARACTERS) {
    return `SECRET has ${distinct} distinct characters, fewer than ${MIN_DISTINCT_CHARACTERS}: too little entropy; ${GENERATE}`
  }
  return undefined
}
