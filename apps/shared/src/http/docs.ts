import type { AddressInfo } from 'node:net'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { headerComponents, referenceHeaders } from '../schemas/headers.js'

/** What differs between the apps' OpenAPI documents: their title, description and their tags (name → description). */
export interface DocsInfo {
  title: string
  description: string
  /** The app's own tags, in the document's order; the `health` tag of the shared health route comes last. */
  tags: Record<string, string>
}

/** The tag of the health route both apps mount (`routes/health.ts`). */
const healthTag = { name: 'health', description: 'for load balancers and probes' }

/**
 * Swagger UI's own Content-Security-Policy minus `upgrade-insecure-requests`, which would send the page's
 * assets to `https://` when it is opened over plain HTTP at any address but localhost (a blank page).
 */
export function withoutUpgradeInsecureRequests(policy: string): string {
  return policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .join('; ')
}

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
 * OpenAPI 3.1 document from the route schemas at `/docs/json` (and `/docs/yaml`), Swagger UI at `/docs`.
 * Registered before the routes it describes.
 */
export async function installDocs(app: FastifyInstance, info: DocsInfo): Promise<void> {
  await app.register(swagger, {
    // Shared schemas keep their `$id` as their name (`#/components/schemas/ErrorEnvelope`).
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: info.title,
        description: info.description,
        version: '1.0.0',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'the server that serves this document' }],
      tags: [...Object.entries(info.tags).map(([name, description]) => ({ name, description })), healthTag],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        headers: headerComponents(),
      },
    },
    transformObject: (document) => referenceHeaders('openapiObject' in document ? document.openapiObject : {}),
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The UI's own Content-Security-Policy (helmet's default forbids its inline bootstrap).
    staticCSP: true,
    transformStaticCSP: withoutUpgradeInsecureRequests,
    uiConfig: { persistAuthorization: false, tryItOutEnabled: false },
  })
}
