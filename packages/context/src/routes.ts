import type { FastifyInstance, RouteOptions } from 'fastify'
import FindMyWay, { type HTTPMethod } from 'find-my-way'
import {
  EmptyRouteParamError,
  InvalidRouteParamError,
  RouteInOtherScopeError,
  RouteNotFoundError,
  RouteParamMissingError,
} from './errors.js'
import { kChain, kRoutes } from './symbols.js'

/** Values for `getRouteURL`/`redirectToRoute`: route parameters, and `queries` for the query string. */
export interface RouteURLParams {
  [param: string]: string | number | boolean | Record<string, string> | undefined
  /** Query parameters appended as `?key=value&...`. */
  queries?: Record<string, string>
}

/** What the route table knows about one route. */
export interface RouteEntry {
  method: string | string[]
  url: string
  handler: unknown
  chain: readonly unknown[] | undefined
}

// The names of the routes of every weftContext registration of an app (keyed by its HTTP server,
// which all of its encapsulation contexts share), to say why a name another scope holds is not
// found in this one.
const namesOfApps = new WeakMap<object, Map<string, string>>()

/**
 * Routes of the application, collected by an `onRoute` hook: names (`config.name`) for URL
 * building, and a router of their own for `restartRouting()` (Fastify does not expose its
 * route handlers by path).
 */
export class RouteTable {
  readonly names = new Map<string, string>()
  readonly router: ReturnType<typeof FindMyWay>
  /** The names of all weftContext registrations of the app. */
  readonly namesOfApp: Map<string, string>

  /** Builds the router with the app's path-matching settings (trailing slash, case, ...). */
  constructor(app: FastifyInstance) {
    let namesOfApp = namesOfApps.get(app.server)
    if (namesOfApp === undefined) {
      namesOfApp = new Map()
      namesOfApps.set(app.server, namesOfApp)
    }
    this.namesOfApp = namesOfApp
    type Flags = Record<string, unknown> & { routerOptions?: Record<string, unknown> }
    const top = app.initialConfig as Flags
    const nested = top.routerOptions ?? {}
    // settings may come top-level (deprecated) or in routerOptions: the non-default value wins
    const on = (key: string) => top[key] === true || nested[key] === true
    this.router = FindMyWay({
      ignoreTrailingSlash: on('ignoreTrailingSlash'),
      ignoreDuplicateSlashes: on('ignoreDuplicateSlashes'),
      allowUnsafeRegex: on('allowUnsafeRegex'),
      caseSensitive: top.caseSensitive !== false && nested.caseSensitive !== false,
      maxParamLength: Number(nested.maxParamLength ?? top.maxParamLength ?? 100),
    })
  }

  /** Records one route as Fastify adds it. */
  add(route: RouteOptions): void {
    const name = (route.config as { name?: unknown } | undefined)?.name
    if (typeof name === 'string' && !this.names.has(name)) {
      this.names.set(name, route.url)
      if (!this.namesOfApp.has(name)) this.namesOfApp.set(name, route.url)
    }
    const handler = route.handler as unknown as { [kChain]?: readonly unknown[] }
    const entry: RouteEntry = { method: route.method, url: route.url, handler, chain: handler[kChain] }
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      const m = method.toUpperCase() as HTTPMethod
      if (!this.router.hasRoute(m, route.url)) this.router.on(m, route.url, () => {}, entry)
    }
  }

  /** Finds the route for a method and path, with its parameters. */
  find(method: string, path: string): { entry: RouteEntry; params: Record<string, string> } | undefined {
    const found = this.router.find(method.toUpperCase() as HTTPMethod, path)
    if (found === null) return undefined
    return { entry: found.store as RouteEntry, params: found.params as Record<string, string> }
  }
}

/** The route table of an app, if `weftContext` is registered on it. */
export function routeTableOf(app: FastifyInstance): RouteTable | undefined {
  return (app as unknown as { [kRoutes]?: RouteTable })[kRoutes]
}

const NAME_CHAR = /[A-Za-z0-9_$]/

function paramValue(params: RouteURLParams, key: string): string {
  const value = params[key]
  if (value === undefined || value === null || typeof value === 'object') return ''
  return String(value)
}

/** Index just after the regular expression `(...)` starting at `start`. */
function skipRegex(pattern: string, start: number): number {
  let depth = 0
  for (let i = start; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++
    else if (pattern[i] === '(') depth++
    else if (pattern[i] === ')' && --depth === 0) return i + 1
  }
  return pattern.length
}

/**
 * Fills the `:params` and wildcard of a Fastify route pattern, URL-encoding each value (wildcards
 * keep their `/`), leaves a missing optional parameter empty (its slash stays), and appends `queries`.
 */
export function fillRoute(name: string, pattern: string, params: RouteURLParams): string {
  let out = ''
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string
    if (ch === ':' && pattern[i + 1] === ':') {
      out += ':'
      i++
    } else if (ch === ':') {
      let j = i + 1
      while (j < pattern.length && NAME_CHAR.test(pattern[j] as string)) j++
      const key = pattern.slice(i + 1, j)
      if (pattern[j] === '(') j = skipRegex(pattern, j)
      const optional = pattern[j] === '?'
      if (optional) j++
      const value = paramValue(params, key)
      // a missing optional parameter leaves its slash, as Fiber does: `/user/:name?` → `/user/`
      if (value !== '') out += encodeURIComponent(value)
      else if (!optional && params[key] === '') throw new EmptyRouteParamError(name, key)
      else if (!optional) throw new RouteParamMissingError(name, key)
      i = j - 1
    } else if (ch === '*') {
      const value = paramValue(params, '*') || paramValue(params, '*1')
      out += value.split('/').map(encodeURIComponent).join('/')
    } else {
      out += ch
    }
  }
  checkRoutePath(name, out)
  const queries = params.queries
  if (queries !== undefined && typeof queries === 'object') {
    const search = new URLSearchParams(queries).toString()
    if (search !== '') out += `?${search}`
  }
  return out
}

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i

/**
 * Refuses a filled route path that a browser would read as another host (`//evil.example/x`,
 * from a wildcard value with a leading `/`) or that holds `.`/`..` segments (plain or encoded,
 * which URL parsers resolve alike): such a URL leaves the route it names.
 */
function checkRoutePath(name: string, path: string): void {
  if (path.startsWith('//')) throw new InvalidRouteParamError(name)
  for (const segment of path.split('/')) {
    if (DOT_SEGMENT.test(segment)) throw new InvalidRouteParamError(name)
  }
}

/** The relative URL of the route named `name`, its parameters filled in. */
export function routeURL(app: FastifyInstance, name: string, params: RouteURLParams = {}): string {
  const table = routeTableOf(app)
  const pattern = table?.names.get(name)
  if (pattern === undefined) {
    if (table?.namesOfApp.has(name)) throw new RouteInOtherScopeError(name)
    throw new RouteNotFoundError(name)
  }
  return fillRoute(name, pattern, params)
}
