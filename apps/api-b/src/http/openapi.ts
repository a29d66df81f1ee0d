import { installDocs } from '@weft/api-shared/http/docs'
import { errorEnvelopeSchema, FieldErrorSchema } from '@weft/api-shared/schemas/envelope'
import type { FastifyInstance } from 'fastify'
import { AccessToken, PublicUser } from '../schemas/users.js'
import { errorCodes } from './errors.js'

/** The schemas the document names (`#/components/schemas/<$id>`); routes reference them with `Type.Ref`. */
const sharedSchemas = [FieldErrorSchema, errorEnvelopeSchema(errorCodes), PublicUser, AccessToken]

/**
 * Builds the OpenAPI 3.1 document from the route schemas and serves it at `GET /docs/json`, with Swagger UI at `/docs`.
 * Must be registered before the routes it describes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of sharedSchemas) app.addSchema(schema)
  await installDocs(app, {
    title: 'Weft example API B',
    description:
      'Register, log in, and read, update or delete your own account. Every body is an envelope ' +
      '`{ status, message, data }`; errors add a `code` from the error catalogue (the repository README), ' +
      'each answered with one status.',
    tags: [
      { name: 'auth', description: 'log in' },
      { name: 'users', description: 'register, and your own account' },
      { name: 'health', description: 'for load balancers and probes' },
    ],
  })
}
