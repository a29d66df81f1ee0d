import { createHmac, generateKeyPairSync, sign } from 'node:crypto'

/** The claims of a JWT, decoded without verification (to forge variants of a real token). */
export function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? ''
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
}

const part = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url')

let rsaKey: { privateKey: string } | undefined

/**
 * Builds a JWT by hand, so the matrix can present what no honest issuer would: `alg: none`, another
 * algorithm, a foreign key, claims signed with the right key but out of their validity window.
 *
 * @example forgeJwt({ alg: 'HS512', key: secret }, { ...claimsOf(real), exp: 0 })
 */
export function forgeJwt(
  how: { alg: 'HS256' | 'HS384' | 'HS512'; key: string } | { alg: 'none' } | { alg: 'RS256' },
  claims: Record<string, unknown>,
): string {
  const body = `${part({ alg: how.alg, typ: 'JWT' })}.${part(claims)}`
  if (how.alg === 'none') return `${body}.`
  if (how.alg === 'RS256') {
    rsaKey ??= generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    })
    return `${body}.${sign('sha256', Buffer.from(body), rsaKey.privateKey).toString('base64url')}`
  }
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[how.alg]
  return `${body}.${createHmac(hash, how.key).update(body).digest('base64url')}`
}

/** A token with one character of its signature changed. */
export function tamperSignature(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A'
  return `${token.slice(0, -2)}${last}${token.slice(-1)}`
}

export const nowSeconds = () => Math.floor(Date.now() / 1000)
