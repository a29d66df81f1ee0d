import swagger from '@fastify/swagger'
import { errorEnvelopeSchema, FieldErrorSchema } from '@weft/api-shared/schemas/envelope'
import { headerComponents, referenceHeaders } from '@weft/api-shared/schemas/headers'
import { weftSwaggerTransform } from '@weft/binding'
import type { FastifyInstance } from 'fastify'
import { AccessToken, PublicUser } from '../schemas/users.js'
import { registerDocsUi } from './docs-ui.js'
import { errorCodes } from './errors.js'

/** The schemas the document names (`#/components/schemas/<$id>`); routes reference them with `Type.Ref`. */
const sharedSchemas = [FieldErrorSchema, errorEnvelopeSchema(errorCodes), PublicUser, AccessToken]

/**
 * Builds the OpenAPI 3.1 document from the route schemas and serves it at `GET /docs/json`, with Swagger UI at `/docs`.
 * Must be registered before the routes it describes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of sharedSchemas) app.addSchema(schema)
  await app.register(swagger, {
    // Shared schemas keep their `$id` as their name (`#/components/schemas/ErrorEnvelope`).
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Weft example API B',
        description:
          'Register, log in, and read, update or delete your own account. Every body is an envelope ' +
          '`{ status, message, data }`; errors add a `code` from the error catalogue (the repository README), ' +
          'each answered with one status.',
        version: '1.0.0',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'the server that serves this document' }],
      tags: [
        { name: 'auth', description: 'log in' },
        { name: 'users', description: 'register, and your own account' },
        { name: 'health', description: 'for load balancers and probes' },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        headers: headerComponents(),
      },
    },
    // Route schemas as clients send them: wire names, no @weft/binding keywords.
    transform: weftSwaggerTransform,
    transformObject: (document) => referenceHeaders('openapiObject' in document ? document.openapiObject : {}),
  })
  await registerDocsUi(app)
}
