import Fastify, { type FastifyInstance } from 'fastify'
import type { PaginationConfig } from '../src/config.js'
import { fromContext } from '../src/context.js'
import { paginate } from '../src/hook.js'

/**
 * A Fastify app with one paginated route, `GET /items`, that answers with what the handler sees:
 * the PageInfo's JSON plus `start()`, or `{ found: false }` when there is none. Test helper only.
 */
export function echoApp(config?: PaginationConfig): FastifyInstance {
  const app = Fastify()
  app.get('/items', { onRequest: paginate(config) }, async (request) => {
    const page = fromContext(request)
    return page === undefined ? { found: false } : { ...page.toJSON(), start: page.start() }
  })
  return app
}

/** GETs `url` from `app` and returns status and parsed JSON body. */
export async function getJSON(
  app: FastifyInstance,
  url: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await app.inject({ method: 'GET', url })
  return { status: response.statusCode, body: response.json() }
}
