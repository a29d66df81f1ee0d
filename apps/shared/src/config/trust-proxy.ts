import { isIP } from 'node:net'

/** Fastify's `trustProxy`: off, all (`true`), a hop count, or the addresses/CIDR ranges of the proxies. */
export type TrustProxy = boolean | number | string[]

export const TRUST_PROXY_TRUE_WARNING =
  'TRUST_PROXY=true trusts every X-Forwarded-For entry, so a client picks its own address (and its rate-limit ' +
  'bucket) by sending one: set the number of proxies in front (TRUST_PROXY=1) or their addresses/CIDR ranges.'

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128)
}

/**
 * Parses `TRUST_PROXY`: empty or `false` (no proxy: the peer address is the client), a hop count (`1`: one
 * proxy in front, the client is the last X-Forwarded-For entry it appended), a comma-separated list of
 * proxy addresses or CIDR ranges, or `true` (every entry trusted: see {@link TRUST_PROXY_TRUE_WARNING}).
 * Returns undefined for anything else.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | undefined {
  const value = (raw ?? '').trim()
  if (value === '' || value === 'false') return false
  if (value === 'true') return true
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value)
  const entries = value.split(',').map((entry) => entry.trim())
  return entries.every(isAddressOrRange) ? entries : undefined
}

/**
 * Fastify's `trustProxy` for a setting. Fastify 5.12 treats a bare hop count as "trust nothing" (it cannot tell
 * a proxy from a direct client), so a count becomes the function proxy-addr documents for it: the socket peer
 * and the `hops - 1` entries it appended are proxies, the entry before them is the client. Only safe when the
 * app is reachable through those proxies alone; addresses or CIDR ranges are checked and preferred.
 */
export function fastifyTrustProxy(
  setting: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting
  return (_address, hop) => hop < setting
}
