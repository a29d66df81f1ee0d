import { setBodyDecoder, weftBinding } from '@weft/binding'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { decodeKeptBodyWith, prepareRequestWith } from './body.js'
import type { Ctx } from './ctx.js'
import { heldCtx } from './ctx-slot.js'
import { CtxUnavailableError } from './errors.js'
import { resolveOptions, type WeftContextOptions } from './options.js'
import { compileTrust } from './proxy-trust.js'
import { RouteScopes } from './restart-hooks.js'
import { RouteTable } from './routes.js'
import { kCtx, kOptions, kRouteScopes, kRoutes } from './symbols.js'

export type { WeftContextOptions } from './options.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's `@weft/context` `Ctx` (created on first access). */
    readonly ctx: Ctx
  }
  interface FastifyContextConfig {
    /** Route name for `c.getRouteURL(name)` / `c.redirectToRoute(name)`. */
    name?: string
  }
}

function getCtx(this: FastifyRequest): Ctx {
  const c = heldCtx(this)
  if (c === undefined) throw new CtxUnavailableError()
  return c
}

async function plugin(fastify: FastifyInstance, options: WeftContextOptions): Promise<void> {
  const table = new RouteTable(fastify)
  const resolved = resolveOptions(options)
  resolved.trust = compileTrust(fastify)
  fastify.decorate(kOptions, resolved)
  fastify.decorate(kRoutes, table)
  const scopes = new RouteScopes()
  fastify.decorate(kRouteScopes, scopes)
  // every request gets it, so that all have one shape (one slot: see ctx-slot.ts)
  fastify.decorateRequest(kCtx, undefined)
  fastify.decorateRequest('ctx', { getter: getCtx })
  fastify.addHook('onRoute', (route) => table.add(route))
  // `this` is the instance the route is registered in: its hooks apply to the route
  fastify.addHook('onRoute', function (this: FastifyInstance, route) {
    scopes.add(this, route)
  })
  fastify.addHook('onRequest', prepareRequestWith(resolved))
  if (!fastify.hasPlugin('@weft/binding')) {
    const bindingOptions: Record<string, unknown> = {}
    if (options.enableSplittingOnParsers !== undefined) {
      bindingOptions.enableSplittingOnParsers = options.enableSplittingOnParsers
    }
    if (options.structValidator !== undefined) bindingOptions.structValidator = options.structValidator
    await fastify.register(weftBinding, bindingOptions)
  }
  setBodyDecoder(fastify, decodeKeptBodyWith(resolved))
}

/**
 * Registers `@weft/context`: `request.ctx`, named routes, raw body capture for `c.body()`, and
 * `@weft/binding` (unless registered already) with `enableSplittingOnParsers`/`structValidator`.
 *
 * @example
 * ```ts
 * await app.register(weftContext, { proxyHeader: 'X-Real-IP' })
 * app.get('/', handle((c) => c.sendString(`hello ${c.ip()}`)))
 * ```
 */
export const weftContext = fp(plugin, { fastify: '5.x', name: '@weft/context' })
