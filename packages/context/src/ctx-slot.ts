import type { FastifyReply, FastifyRequest } from 'fastify'
import { Ctx, createCtx } from './ctx.js'
import { defaultOptions, type ResolvedOptions } from './options.js'
import { kCtx, kOptions } from './symbols.js'

// One request decorator holds all of a request's Ctx state: its reply, as the plugin's onRequest
// hook remembers it, then the Ctx once one is made (body capture state lives on the Ctx). Fastify
// assigns every decorator in its Request constructor through one keyed store that sees every
// decorator's name (megamorphic, ~150 instructions each), so each slot costs every request,
// used or not; five slots cost more than the rest of the hook (bench/RESULTS.md).
type Slot = FastifyRequest & { [kCtx]?: Ctx | FastifyReply }

type OptionsCarrier = { [kOptions]?: ResolvedOptions }

// The plugin's options, remembered for the last Fastify instance asked (one reference held):
// looking them up on the instance, inherited through its encapsulation prototypes, was one of
// the costlier steps of creating a `Ctx` (bench/RESULTS.md, "What (b) costs").
let lastServer: unknown
let lastOptions: ResolvedOptions = defaultOptions

/** The options of the weftContext registration `server` (a route's instance) sees; defaults without one. */
export function optionsOf(server: FastifyRequest['server']): ResolvedOptions {
  if (server !== lastServer) {
    lastOptions = (server as unknown as OptionsCarrier)[kOptions] ?? defaultOptions
    lastServer = server
  }
  return lastOptions
}

/** The `Ctx` of a request: created on first use, the same object afterwards. */
export function ctx(request: FastifyRequest, reply: FastifyReply): Ctx {
  const slot = request as Slot
  const held = slot[kCtx]
  // the slot holds this request's reply until a Ctx is made
  if (held !== undefined && held !== reply) return held as Ctx
  const c = createCtx(request, reply, optionsOf(request.server))
  slot[kCtx] = c
  return c
}

/** Remembers the reply, so that `request.ctx` can make the `Ctx` later (a `Ctx` made already stays). */
export function rememberReply(request: FastifyRequest, reply: FastifyReply): void {
  const slot = request as Slot
  if (slot[kCtx] === undefined) slot[kCtx] = reply
}

/** The request's `Ctx`, made now from the remembered reply if needed; `undefined` when neither is known. */
export function heldCtx(request: FastifyRequest): Ctx | undefined {
  const held = (request as Slot)[kCtx]
  if (held === undefined || held instanceof Ctx) return held
  return ctx(request, held)
}
