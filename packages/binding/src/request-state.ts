import type { Buffer } from 'node:buffer'
import type { FastifyInstance, FastifyRequest } from 'fastify'

// What binding keeps on a request, in one request decorator: the body bytes its parser read (for
// `c.body()`), and which parts the route's validation has bound (for `bind()`). Fastify assigns
// every request decorator in its Request constructor through one keyed store that sees every
// decorator's name (megamorphic, about 160 instructions each), so each decorator costs every
// request, used or not; one slot for both costs half of two. The slot holds the value itself when
// there is only one (no allocation on the common routes): undefined, the bytes, the bound parts'
// bits, or, when a route's validation binds a body a binding parser kept, both in one object.
const kState = Symbol('weft.binding.requestState')

class BytesAndBound {
  constructor(
    public bytes: Buffer,
    public bound: number,
  ) {}
}

type State = undefined | Buffer | number | BytesAndBound
type StateCarrier = FastifyRequest & { [kState]?: State }

/** Declares the request decorator, so that every request has the same shape. */
export function decorateRequestState(fastify: FastifyInstance): void {
  if (!fastify.hasRequestDecorator(kState)) fastify.decorateRequest(kState, undefined)
}

/** The body bytes a binding parser kept for this request, if one parsed its body. */
export function keptBytes(request: FastifyRequest): Buffer | undefined {
  const state = (request as StateCarrier)[kState]
  if (typeof state !== 'object') return undefined
  return state instanceof BytesAndBound ? state.bytes : state
}

/** Keeps the body bytes a binding parser read. */
export function keepBytes(request: FastifyRequest, bytes: Buffer): void {
  const carrier = request as StateCarrier
  const state = carrier[kState]
  if (typeof state === 'number' && state !== 0) carrier[kState] = new BytesAndBound(bytes, state)
  else if (state instanceof BytesAndBound) state.bytes = bytes
  else carrier[kState] = bytes
}

/** The bits of the parts the route's validation has bound so far. */
export function boundBits(request: FastifyRequest): number {
  const state = (request as StateCarrier)[kState]
  if (typeof state === 'number') return state
  return state instanceof BytesAndBound ? state.bound : 0
}

/** Adds `bits` to the parts the route's validation has bound. */
export function addBoundBits(request: FastifyRequest, bits: number): void {
  const carrier = request as StateCarrier
  const state = carrier[kState]
  if (state === undefined || typeof state === 'number') carrier[kState] = (state ?? 0) | bits
  else if (state instanceof BytesAndBound) state.bound |= bits
  else carrier[kState] = new BytesAndBound(state, bits)
}
