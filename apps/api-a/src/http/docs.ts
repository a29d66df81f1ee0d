import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'

/** OpenAPI 3 document from the route schemas at `/docs/json`, Swagger UI at `/docs`. */
export async function installDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    // Shared schemas keep their `$id` as their name (`#/components/schemas/ErrorEnvelope`).
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Weft example API A',
        description:
          'Users with revocable JWTs, and products. Every body is an envelope `{ status, message, data }`; errors add `code`.',
        version: '1.0.0',
      },
      tags: [{ name: 'auth' }, { name: 'users' }, { name: 'products' }, { name: 'health' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The UI's own Content-Security-Policy (helmet's default forbids its inline bootstrap).
    staticCSP: true,
    uiConfig: { persistAuthorization: false, tryItOutEnabled: false },
  })
}
