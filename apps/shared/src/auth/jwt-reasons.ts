/** Why the token verifier (fast-jwt, under @fastify/jwt) refused a token, in words a client can act on. */
const jwtReasons: Record<string, string> = {
  FAST_JWT_EXPIRED: 'token has expired',
  FAST_JWT_INACTIVE: 'token is not valid yet',
  FAST_JWT_INVALID_SIGNATURE: 'signature does not match',
  FAST_JWT_INVALID_ALGORITHM: 'algorithm is not HS256',
  FAST_JWT_MISSING_SIGNATURE: 'token is not signed',
  FAST_JWT_MISSING_REQUIRED_CLAIM: 'a required claim is missing',
}

/** The reason for a verifier's error; any error it has no words for is a malformed token. */
export function jwtReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && Object.hasOwn(jwtReasons, code)
    ? (jwtReasons[code] as string)
    : 'token is malformed'
}
