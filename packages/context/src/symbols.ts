/** Where the plugin keeps its resolved options on the Fastify instance. */
export const kOptions = Symbol('weft.context.options')
/** Where the plugin keeps its route table (names and the restart router). */
export const kRoutes = Symbol('weft.context.routes')
/** Where the plugin keeps, for `restartRouting()`, the instance and options each route was registered with. */
export const kRouteScopes = Symbol('weft.context.routeScopes')
/** Marks a Fastify handler built by `handle()`, and holds its chain. */
export const kChain = Symbol('weft.context.chain')
/** A buffered body meaning "no content at all": what `sendStatus()` leaves for a code without a reason phrase. */
export const kNoContent = Symbol('weft.context.noContent')
