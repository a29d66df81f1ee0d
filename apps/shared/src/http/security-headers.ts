import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet from 'helmet'

/**
 * helmet's defaults without the CSP directive `upgrade-insecure-requests`: a browser that reaches the
 * server over plain HTTP at any address but localhost would fetch every asset of the docs page over
 * HTTPS, which this server does not speak, and render a blank page. Moving clients to HTTPS is the TLS
 * terminator's job (it owns the certificate); HSTS stays, as browsers only honour it over HTTPS.
 */
export const helmetOptions = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
} as const

/**
 * The headers of {@link helmetOptions}, computed once: helmet's middleware is run against a stub
 * response that records them. Written by hand (instead of registering @fastify/helmet) for speed:
 * @fastify/helmet rebuilds helmet's middleware and re-parses the CSP directives on every request,
 * while the set has no per-request part (no nonces), so one frozen object serves them all.
 */
export function securityHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  let failure: unknown
  helmet(helmetOptions)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error
  })
  if (failure) throw failure
  return Object.freeze(headers)
}
