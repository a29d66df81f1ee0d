import type { Buffer } from 'node:buffer'
import type { FastifyInstance, FastifyRequest } from 'fastify'

// What Weft keeps on a request, in one request decorator: the body bytes binding's parser read
// (for `c.body()`), which parts the route's validation has bound (for `bind()`), and the value of
// a plugin built on binding (@weft/context keeps the request's reply, then its `Ctx`, here).
// Fastify assigns every request decorator in its Request constructor, in one loop: with one
// decorator the store is a plain one, with two or more it is a keyed store that sees every
// decorator's name (megamorphic, about 190 instructions each, counted), so each decorator costs
// every request, used or not. The slot holds the plugin's object itself (no allocation on the
// common routes), and a RequestState once binding has bytes or bits to keep.
const kState = Symbol('weft.binding.requestState')

class RequestState {
  constructor(
    public bytes: Buffer | undefined,
    public bound: number,
    public companion: object | undefined,
  ) {}
}

type StateCarrier = FastifyRequest & { [kState]?: RequestState | object }

/** Declares the request decorator, so that every request has the same shape. */
export function decorateRequestState(fastify: FastifyInstance): void {
  if (!fastify.hasRequestDecorator(kState)) fastify.decorateRequest(kState, undefined)
}

/** Binding's own state of the request, made on first use. */
function stateOf(carrier: StateCarrier): RequestState {
  const held = carrier[kState]
  if (held instanceof RequestState) return held
  const made = new RequestState(undefined, 0, held)
  carrier[kState] = made
  return made
}

/** The body bytes a binding parser kept for this request, if one parsed its body. */
export function keptBytes(request: FastifyRequest): Buffer | undefined {
  const held = (request as StateCarrier)[kState]
  return held instanceof RequestState ? held.bytes : undefined
}

/** Keeps the body bytes a binding parser read. */
export function keepBytes(request: FastifyRequest, bytes: Buffer): void {
  stateOf(request as StateCarrier).bytes = bytes
}

/** The bits of the parts the route's validation has bound so far. */
export function boundBits(request: FastifyRequest): number {
  const held = (request as StateCarrier)[kState]
  return held instanceof RequestState ? held.bound : 0
}

/** Adds `bits` to the parts the route's validation has bound. */
export function addBoundBits(request: FastifyRequest, bits: number): void {
  stateOf(request as StateCarrier).bound |= bits
}

/**
 * The per-request value of a plugin built on `@weft/binding` (`@weft/context` keeps its `Ctx`
 * there), kept in binding's own request decorator so that the two cost one; `undefined` until
 * `setRequestCompanion()`. Without the binding plugin registered it still works, on a property
 * the request gets then.
 */
export function requestCompanion(request: FastifyRequest): object | undefined {
  const held = (request as StateCarrier)[kState]
  return held instanceof RequestState ? held.companion : held
}

/** Sets the value `requestCompanion()` returns (see there). */
export function setRequestCompanion(request: FastifyRequest, value: object): void {
  const carrier = request as StateCarrier
  const held = carrier[kState]
  if (held instanceof RequestState) held.companion = value
  else carrier[kState] = value
}
