/**
 * @fastify/helmet's defaults without the CSP directive `upgrade-insecure-requests`: a browser that reaches
 * the server over plain HTTP at any address but localhost would fetch every asset of the docs page over
 * HTTPS, which this server does not speak, and render a blank page. Moving clients to HTTPS is the TLS
 * terminator's job (it owns the certificate); HSTS stays, as browsers only honour it over HTTPS.
 */
export const helmetOptions = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
} as const

/** A Content-Security-Policy header without `upgrade-insecure-requests` (for Swagger UI's own policy). */
export function withoutUpgradeInsecureRequests(policy: string): string {
  return policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .join('; ')
}
