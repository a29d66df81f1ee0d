import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { RestartHooksUnknownError } from './errors.js'
import { kRouteScopes } from './symbols.js'

type Hook = (this: FastifyInstance, ...args: unknown[]) => unknown

/** The request hooks a route runs before its handler, in Fastify's order. */
const LIFECYCLE = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const
type Lifecycle = (typeof LIFECYCLE)[number]

/** Where a route was registered (its plugin's hooks) and its options (its own hooks). */
interface RouteScope {
  instance: FastifyInstance
  options: RouteOptions
}

/**
 * The instance and options of every route, recorded by an `onRoute` hook: Fastify merges a
 * route's hooks (its plugin's and its own) into a context it does not expose, so
 * `restartRouting()` rebuilds that list from the same two sources.
 */
export class RouteScopes {
  readonly #scopes = new Map<string, RouteScope>()

  add(instance: FastifyInstance, options: RouteOptions): void {
    const methods = Array.isArray(options.method) ? options.method : [options.method]
    for (const method of methods) {
      const key = `${method.toUpperCase()} ${options.url}`
      // the first route of a method and path wins, as in the restart router (routes.ts)
      if (!this.#scopes.has(key)) this.#scopes.set(key, { instance, options })
    }
  }

  get(method: string, url: string): RouteScope | undefined {
    return this.#scopes.get(`${method.toUpperCase()} ${url}`)
  }
}

/** The route scopes of an app, if `weftContext` is registered on it. */
export function routeScopesOf(app: FastifyInstance): RouteScopes | undefined {
  return (app as unknown as { [kRouteScopes]?: RouteScopes })[kRouteScopes]
}

/**
 * The hooks of an instance for one lifecycle step (its own and those inherited from its parents),
 * `undefined` when this Fastify keeps them where we cannot see. Fastify exports no symbol for
 * them, so it is found by its description, as proxy-trust.ts finds the options.
 */
function instanceHooks(instance: FastifyInstance, name: Lifecycle): Hook[] | undefined {
  for (let o: object | null = instance; o !== null; o = Object.getPrototypeOf(o)) {
    const symbol = Object.getOwnPropertySymbols(o).find((s) => s.description === 'fastify.hooks')
    if (symbol !== undefined) return (o as Record<symbol, Record<Lifecycle, Hook[]> | undefined>)[symbol]?.[name]
  }
  return undefined
}

function routeHooks(options: RouteOptions | undefined, name: Lifecycle): Hook[] {
  const hooks = (options as Record<string, Hook | Hook[] | undefined> | undefined)?.[name]
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]
}

/** Every hook a route runs at one step: its plugin's, then its own (Fastify's order). */
function hooksOf(instance: FastifyInstance, options: RouteOptions | undefined, name: Lifecycle): Hook[] | undefined {
  const inherited = instanceHooks(instance, name)
  return inherited === undefined ? undefined : inherited.concat(routeHooks(options, name))
}

/** Hooks that already ran for a request: those of the route Fastify matched, then of each restart. */
const ranFor = new WeakMap<FastifyRequest, Set<Hook>>()

function ranHooks(request: FastifyRequest, scopes: RouteScopes): Set<Hook> {
  let ran = ranFor.get(request)
  if (ran === undefined) {
    ran = new Set()
    // request.server is the instance the matched route was registered in
    const origin = scopes.get(request.method, request.routeOptions.url ?? '')
    for (const name of LIFECYCLE) for (const hook of hooksOf(request.server, origin?.options, name) ?? []) ran.add(hook)
    ranFor.set(request, ran)
  }
  return ran
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/**
 * Runs one hook as Fastify does (callback `done`, or a promise); resolves to `true` when the hook
 * answered the request itself (`reply.send()`, or an async hook resolving to `reply`). A
 * preParsing hook gets an empty payload: the body was parsed for the first route already.
 */
function runHook(
  hook: Hook,
  scope: RouteScope,
  name: Lifecycle,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => (error ? reject(error) : resolve(reply.sent))
    let result: unknown
    try {
      result =
        name === 'preParsing'
          ? hook.call(scope.instance, request, reply, Readable.from([]), done)
          : hook.call(scope.instance, request, reply, done)
    } catch (error) {
      reject(error)
      return
    }
    if (isThenable(result)) result.then((value) => resolve(value === reply || reply.sent), reject)
    else if (reply.sent) resolve(true)
  })
}

/**
 * Runs the request hooks (onRequest, preParsing, preValidation, preHandler) of the route
 * `restartRouting()` goes to that have not run for this request yet: the new route's own hooks
 * and those of the plugin it was registered in (an auth check on `/admin` runs, and may answer
 * 401). Resolves to `true` when a hook answered the request: the route's handler must not run.
 */
export async function runRouteHooks(
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
  url: string,
): Promise<boolean> {
  const scopes = routeScopesOf(request.server)
  const scope = scopes?.get(method, url)
  if (scopes === undefined || scope === undefined) throw new RestartHooksUnknownError(method, url.slice(0, 256))
  const ran = ranHooks(request, scopes)
  for (const name of LIFECYCLE) {
    const hooks = hooksOf(scope.instance, scope.options, name)
    if (hooks === undefined) throw new RestartHooksUnknownError(method, url.slice(0, 256))
    for (const hook of hooks) {
      if (ran.has(hook)) continue
      ran.add(hook)
      if (reply.sent || (await runHook(hook, scope, name, request, reply))) return true
    }
  }
  return reply.sent
}
