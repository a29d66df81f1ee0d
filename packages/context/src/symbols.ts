/** Where the plugin keeps its resolved options on the Fastify instance. */
export const kOptions = Symbol('weft.context.options')
/** Where the plugin keeps its route table (names and the restart router). */
export const kRoutes = Symbol('weft.context.routes')
/** The request's `Ctx`, created on first use. */
export const kCtx = Symbol('weft.context.ctx')
/** The reply of a request, remembered so `request.ctx` can be created without one. */
export const kReply = Symbol('weft.context.reply')
/** Raw body chunks, kept while Fastify reads a body that no binding parser keeps. */
export const kRawBody = Symbol('weft.context.rawBody')
/** Marks a Fastify handler built by `handle()`, and holds its chain. */
export const kChain = Symbol('weft.context.chain')
/** The decoded request body (or the error decoding it), computed once the body is read. */
export const kDecodedBody = Symbol('weft.context.decodedBody')
/** The decoding of a coded request body, under way; `handle()` waits for it. */
export const kDecoding = Symbol('weft.context.decoding')
/** A buffered body meaning "no content at all": what `sendStatus()` leaves for a code without a reason phrase. */
export const kNoContent = Symbol('weft.context.noContent')
