import { installDocs as installSharedDocs } from '@weft/api-shared/http/docs'
import type { FastifyInstance } from 'fastify'

/** OpenAPI 3.1 document from the route schemas at `/docs/json`, Swagger UI at `/docs`. */
export async function installDocs(app: FastifyInstance): Promise<void> {
  await installSharedDocs(app, {
    title: 'Weft example API A',
    description:
      'Users with revocable JWTs, and products. Every body is an envelope `{ status, message, data }`; errors ' +
      'add a `code` from the error catalogue (the repository README), each answered with one status.',
    tags: {
      auth: 'register, log in, log out, refresh tokens',
      users: 'your own account',
      products: 'products: anyone reads them, their owner creates and deletes them',
    },
  })
}
