/** Claims of an access token (HS256 JWT). `sid` names the login session the token belongs to. */
export interface AccessClaims {
  /** The user id, as a decimal string. */
  sub: string
  /** Session (refresh-token family) id. */
  sid: string
  /** Unique token id, the key of a revocation. */
  jti: string
  /** Issued at, seconds since the epoch. */
  iat: number
  /** Expires at, seconds since the epoch. */
  exp: number
}

/** The authenticated caller of a request, set by the `authenticate` hook. */
export interface Principal {
  userId: number
  sessionId: string
  jti: string
  /** When the access token expires (a revocation is kept until then). */
  expiresAt: Date
}

/** The body of login and refresh-token answers. */
export interface TokenPair {
  access_token: string
  token_type: 'Bearer'
  /** Seconds until `access_token` expires. */
  expires_in: number
  refresh_token: string
}

/** Clock skew tolerated for `iat`: a token issued later than this in the future is not valid yet. */
const MAX_CLOCK_SKEW_SECONDS = 30
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const maxUserId = 2_147_483_647

/** The principal the verified claims describe, or undefined when they are not shaped as this API issues them. */
export function principalOf(claims: unknown): Principal | undefined {
  if (claims === null || typeof claims !== 'object') return undefined
  const { sub, sid, jti, iat, exp } = claims as Partial<Record<keyof AccessClaims, unknown>>
  if (typeof sub !== 'string' || !/^[1-9]\d{0,9}$/.test(sub) || Number(sub) > maxUserId) return undefined
  if (typeof sid !== 'string' || !uuid.test(sid) || typeof jti !== 'string' || !uuid.test(jti)) return undefined
  if (typeof exp !== 'number' || !Number.isInteger(exp)) return undefined
  if (typeof iat !== 'number' || iat > Date.now() / 1000 + MAX_CLOCK_SKEW_SECONDS) return undefined
  return { userId: Number(sub), sessionId: sid, jti, expiresAt: new Date(exp * 1000) }
}
