import { setBodyDecoder, type WeftBindingOptions, weftBinding } from '@weft/binding'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Ctx } from './ctx.js'
import { heldCtx } from './ctx-slot.js'
import { CtxDecoratorTakenError, CtxUnavailableError } from './errors.js'
import { decodeKeptBody, prepareRequest } from './keep-body.js'
import { resolveOptions, type WeftContextOptions } from './options.js'
import { compileTrust } from './proxy-trust.js'
import { RouteScopes } from './restart-hooks.js'
import { RouteTable, routeTableOf } from './routes.js'
import { kOptions, kRouteScopes, kRoutes } from './symbols.js'

export type { WeftContextOptions } from './options.js'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The request's `@weft/context` `Ctx` (created on first access). `undefined` in a scope where
     * weftContext is not registered: Fastify's types are the same for every scope, so this one
     * says so. `handle((c) => ...)` and `ctx(request, reply)` give a `Ctx` typed as present.
     */
    readonly ctx?: Ctx
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
  const resolved = resolveOptions(options)
  resolved.trust = compileTrust(fastify)
  // the options of this scope (and those inside it): own, so that a child scope may have its own
  Object.defineProperty(fastify, kOptions, { value: resolved, writable: true, configurable: true })
  // registered again in a scope inside one that has it: only the options are this scope's own
  if (routeTableOf(fastify) === undefined) registerOnce(fastify, options)
  const bindingOptions = bindingOptionsOf(options)
  if (bindingOptions !== undefined || !fastify.hasPlugin('@weft/binding')) {
    await fastify.register(weftBinding, bindingOptions ?? {})
  }
}

/** The decorators, route table and hooks, once for a scope and the scopes inside it. */
function registerOnce(fastify: FastifyInstance, options: WeftContextOptions): void {
  if (options.decorateRequest !== false && fastify.hasRequestDecorator('ctx')) throw new CtxDecoratorTakenError()
  const table = new RouteTable(fastify)
  fastify.decorate(kRoutes, table)
  const scopes = new RouteScopes()
  fastify.decorate(kRouteScopes, scopes)
  if (options.decorateRequest !== false) fastify.decorateRequest('ctx', { getter: getCtx })
  fastify.addHook('onRoute', (route) => table.add(route))
  // `this` is the instance the route is registered in: its hooks apply to the route
  fastify.addHook('onRoute', function (this: FastifyInstance, route) {
    scopes.add(this, route)
  })
  fastify.addHook('onRequest', prepareRequest)
  setBodyDecoder(fastify, decodeKeptBody)
}

/** The `@weft/binding` options given to weftContext (`binding`, and the two binding settings), if any. */
function bindingOptionsOf(options: WeftContextOptions): WeftBindingOptions | undefined {
  const { binding, enableSplittingOnParsers, structValidator } = options
  if (binding === undefined && enableSplittingOnParsers === undefined && structValidator === undefined) return undefined
  const out: WeftBindingOptions = { ...binding }
  if (enableSplittingOnParsers !== undefined) out.enableSplittingOnParsers = enableSplittingOnParsers
  if (structValidator !== undefined) out.structValidator = structValidator as WeftBindingOptions['structValidator']
  return out
}

/**
 * Registers `@weft/context`: `request.ctx`, named routes, raw body capture for `c.body()`, and
 * `@weft/binding` (with the `binding` options, or `enableSplittingOnParsers`/`structValidator`;
 * unless registered already and none are given). Registered again in a child scope, it gives
 * that scope (and those inside it) its own options, such as `root`.
 *
 * @example
 * ```ts
 * await app.register(weftContext, { proxyHeader: 'X-Real-IP', binding: { multipart: false } })
 * app.get('/', handle((c) => c.sendString(`hello ${c.ip()}`)))
 * ```
 */
export const weftContext = fp(plugin, { fastify: '5.x', name: '@weft/context' })
