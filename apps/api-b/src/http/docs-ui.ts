import type { AddressInfo } from 'node:net'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { withoutUpgradeInsecureRequests } from './security.js'

/**
 * Where a browser finds Swagger UI on the server listening at `address`: a wildcard address (`0.0.0.0`, `::`)
 * is shown as `localhost`, IPv6 in brackets.
 *
 * @example
 * docsUrl({ address: '0.0.0.0', family: 'IPv4', port: 3000 }) // 'http://localhost:3000/docs'
 */
export function docsUrl(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::'
  const host = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}/docs`
}

/**
 * Swagger UI at `/docs` (as in API A) and the OpenAPI document at `/docs/json` and `/docs/yaml`. Registered
 * after @fastify/swagger, whose document it serves.
 */
export async function registerDocsUi(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The UI's own Content-Security-Policy (helmet's forbids its inline bootstrap), minus the HTTPS upgrade.
    staticCSP: true,
    transformStaticCSP: withoutUpgradeInsecureRequests,
    uiConfig: { persistAuthorization: false, tryItOutEnabled: false },
  })
}
