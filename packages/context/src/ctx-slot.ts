import { requestCompanion, setRequestCompanion } from '@weft/binding'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Ctx, createCtx } from './ctx.js'
import { defaultOptions, type ResolvedOptions } from './options.js'
import { kOptions } from './symbols.js'

// A request's Ctx state is one value: its reply, as the plugin's onRequest hook remembers it, then
// the Ctx once one is made (body capture state lives on the Ctx). It is kept in @weft/binding's
// request decorator (`requestCompanion`), not one of its own: Fastify assigns every request
// decorator in its Request constructor, and two or more cost a megamorphic store each (about 190
// instructions per request each, counted), where a single one costs a plain store.

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
  const held = requestCompanion(request)
  // the slot holds this request's reply until a Ctx is made
  if (held !== undefined && held !== reply) return held as Ctx
  const c = createCtx(request, reply, optionsOf(request.server))
  setRequestCompanion(request, c)
  return c
}

/** Remembers the reply, so that `request.ctx` can make the `Ctx` later (a `Ctx` made already stays). */
export function rememberReply(request: FastifyRequest, reply: FastifyReply): void {
  if (requestCompanion(request) === undefined) setRequestCompanion(request, reply)
}

/** The request's `Ctx`, made now from the remembered reply if needed; `undefined` when neither is known. */
export function heldCtx(request: FastifyRequest): Ctx | undefined {
  const held = requestCompanion(request)
  if (held === undefined || held instanceof Ctx) return held
  return ctx(request, held as FastifyReply)
}
