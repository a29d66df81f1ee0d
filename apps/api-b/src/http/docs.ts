import { installDocs as installSharedDocs } from '@weft/api-shared/http/docs'
import type { FastifyInstance } from 'fastify'

/** OpenAPI 3.1 document from the route schemas at `/docs/json`, Swagger UI at `/docs`. */
export async function installDocs(app: FastifyInstance): Promise<void> {
  await installSharedDocs(app, {
    title: 'Weft example API B',
    description:
      'Register, log in, and read, update or delete your own account. Every body is an envelope ' +
      '`{ status, message, data }`; errors add a `code` from the error catalogue (the repository README), ' +
      'each answered with one status.',
    tags: { auth: 'log in', users: 'register, and your own account' },
  })
}
