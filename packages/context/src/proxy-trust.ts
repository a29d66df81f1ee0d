import proxyAddr from '@fastify/proxy-addr'
import type { FastifyInstance } from 'fastify'

/** Whether a peer address (hop 0) is a trusted proxy. */
export type TrustFn = (address: string, hop: number) => boolean

/** `trustProxy` was not set on the app: no peer is a trusted proxy. */
export const NO_TRUST = 'none'

function trustProxySetting(app: FastifyInstance): unknown {
  // Fastify keeps its options under a symbol it does not export; the setting is not in initialConfig
  for (let o: object | null = app; o !== null; o = Object.getPrototypeOf(o)) {
    const symbol = Object.getOwnPropertySymbols(o).find((s) => s.description === 'fastify.options')
    if (symbol !== undefined) return (o as Record<symbol, { trustProxy?: unknown } | undefined>)[symbol]?.trustProxy
  }
  return undefined
}

/**
 * The app's `trustProxy` setting compiled the way Fastify compiles it (a function, `true`, a
 * hop count, which trusts no peer, or addresses/CIDRs), so weft decides trust exactly as
 * `request.ip`/`request.host` do; `NO_TRUST` when it is not set.
 */
export function compileTrust(app: FastifyInstance): TrustFn | typeof NO_TRUST {
  const setting = trustProxySetting(app)
  if (setting === undefined || setting === false || setting === null) return NO_TRUST
  if (typeof setting === 'function') return setting as TrustFn
  if (setting === true) return () => true
  if (typeof setting === 'number') return () => false
  if (typeof setting === 'string') return proxyAddr.compile(setting.split(',').map((s) => s.trim()))
  return proxyAddr.compile(setting as string[])
}
