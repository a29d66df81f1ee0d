import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'

/**
 * Builds the OpenAPI 3 document from the route schemas and serves it at `GET /docs/json`.
 * Must be registered before the routes it describes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Weft example API B',
        description: 'Register, log in, and read, update or delete your own account.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
  })
  app.get('/docs/json', { schema: { hide: true } }, async () => app.swagger())
}
