import { weftBinding } from '@weft/binding'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { prepareRequestWith } from './body.js'
import type { Ctx } from './ctx.js'
import { CtxUnavailableError } from './errors.js'
import { ctx } from './handle.js'
import { resolveOptions, type WeftContextOptions } from './options.js'
import { compileTrust } from './proxy-trust.js'
import { RouteTable } from './routes.js'
import { kCtx, kDecodedBody, kDecoding, kOptions, kRawBody, kReply, kRoutes } from './symbols.js'

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

type Carrier = FastifyRequest & { [kCtx]?: Ctx; [kReply]?: FastifyReply }

function getCtx(this: Carrier): Ctx {
  const existing = this[kCtx]
  if (existing !== undefined) return existing
  const reply = this[kReply]
  if (reply === undefined) throw new CtxUnavailableError()
  return ctx(this, reply)
}

async function plugin(fastify: FastifyInstance, options: WeftContextOptions): Promise<void> {
  const table = new RouteTable(fastify)
  const resolved = resolveOptions(options)
  resolved.trust = compileTrust(fastify)
  fastify.decorate(kOptions, resolved)
  fastify.decorate(kRoutes, table)
  fastify.decorateRequest(kCtx, undefined)
  // every request gets these, so that all have one shape
  fastify.decorateRequest(kReply, undefined)
  fastify.decorateRequest(kRawBody, undefined)
  fastify.decorateRequest(kDecoding, undefined)
  fastify.decorateRequest(kDecodedBody, undefined)
  fastify.decorateRequest('ctx', { getter: getCtx })
  fastify.addHook('onRoute', (route) => table.add(route))
  fastify.addHook('onRequest', prepareRequestWith(resolved))
  if (!fastify.hasPlugin('@weft/binding')) {
    const bindingOptions: Record<string, unknown> = {}
    if (options.enableSplittingOnParsers !== undefined) {
      bindingOptions.enableSplittingOnParsers = options.enableSplittingOnParsers
    }
    if (options.structValidator !== undefined) bindingOptions.structValidator = options.structValidator
    await fastify.register(weftBinding, bindingOptions)
  }
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
