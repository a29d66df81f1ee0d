import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { type WeftContextOptions, weftContext } from '../src/index.js'

/** A Fastify app with `weftContext` registered, for `app.inject` tests. */
export async function makeApp(
  options: WeftContextOptions = {},
  fastifyOptions: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions)
  await app.register(weftContext, options)
  return app
}
