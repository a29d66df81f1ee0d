import type { JWT } from '@fastify/jwt'

/**
 * Verifies access tokens with the current `SECRET` and, during a key rotation, with `SECRET_PREVIOUS`:
 * a token whose signature does not match the current key is tried against the previous one, so tokens
 * signed before every replica got the new key keep working until they expire. New tokens are always
 * signed with the current key (`app.jwt.sign`).
 */
export function createAccessVerifier(jwt: JWT, previousSecret: string | undefined) {
  return (token: string, options: { ignoreExpiration?: boolean } = {}): unknown => {
    try {
      return jwt.verify(token, options)
    } catch (error) {
      const code = (error as { code?: string }).code
      if (previousSecret === undefined || code !== 'FAST_JWT_INVALID_SIGNATURE') throw error
      return jwt.verify(token, { ...options, key: previousSecret })
    }
  }
}
