import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyPluginCallback } from 'fastify'
import { type WeftContextOptions, weftContext } from '../../src/index.js'

/** Which plugin is registered first: Weft's or the official one. */
export type Order = 'weft first' | 'plugin first'

/** Both registration orders, for `describe.each`. */
export const orders: Order[] = ['weft first', 'plugin first']

// biome-ignore lint/suspicious/noExplicitAny: an official plugin of any options type
type AnyPlugin = FastifyPluginAsync<any> | FastifyPluginCallback<any>

/**
 * A Fastify app with `weftContext` and an official `plugin` registered in `order`; routes are
 * added by the caller afterwards, as an app adds them after its plugins.
 */
export async function appWith(
  order: Order,
  plugin: AnyPlugin,
  pluginOptions: object = {},
  weftOptions: WeftContextOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify()
  if (order === 'plugin first') await app.register(plugin, pluginOptions)
  await app.register(weftContext, weftOptions)
  if (order === 'weft first') await app.register(plugin, pluginOptions)
  return app
}
