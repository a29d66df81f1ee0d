import { createHash, createHmac } from 'node:crypto'

/**
 * Builds a cursor in @weft/pagination's signed format (base64url JSON, `.` sort fingerprint, `.` HMAC
 * signature), so hostile payloads pass the signature check and reach the code behind it. The format is
 * the package's documented token layout; a self-test checks it against real tokens.
 */
export function cursorSigner(secret: Buffer | string, sort: { field: string; order: 'asc' | 'desc' }[]) {
  const key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret
  let canonical = ''
  for (const { field, order } of sort) canonical += `${JSON.stringify(field)}${order === 'desc' ? '-' : '+'}`
  const fingerprint = createHash('sha256').update(canonical).digest().subarray(0, 9).toString('base64url')
  return (payload: string): string => {
    const token = `${Buffer.from(payload, 'utf8').toString('base64url')}.${fingerprint}`
    return `${token}.${createHmac('sha256', key).update(token).digest('base64url')}`
  }
}

/** The JSON payload of a signed or unsigned token. */
export const cursorPayload = (token: string): string =>
  Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')
