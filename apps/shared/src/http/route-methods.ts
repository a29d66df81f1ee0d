import type { FastifyInstance } from 'fastify'
import FindMyWay, { type HTTPMethod } from 'find-my-way'

/** The router options that decide which paths a route matches: pass the ones the app gives Fastify. */
export interface PathMatching {
  ignoreTrailingSlash?: boolean
  maxParamLength?: number
}

/** The order of `Allow`; methods it does not list follow in the order they were registered. */
const canonical = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/** A catch-all route (the CORS plugin's `OPTIONS *`) is no evidence that a path exists. */
const isCatchAll = (url: string) => url === '*' || url === '/*'

/**
 * Records every route the app registers from now on (so: call it before the routes) in a router of its own —
 * find-my-way, Fastify's router, with the app's matching options — and returns the lookup the not-found
 * handler uses: the methods a path has, or none when no route but a catch-all matches it.
 *
 * @example
 * const methodsOf = trackRouteMethods(app, { maxParamLength: 200 })
 * methodsOf('/api/users/7') // ['GET', 'HEAD', 'PATCH', 'DELETE']
 */
export function trackRouteMethods(app: FastifyInstance, matching: PathMatching): (url: string) => string[] {
  const paths = FindMyWay(matching)
  const catchAll = FindMyWay(matching)
  const methods: HTTPMethod[] = []
  app.addHook('onRoute', (route) => {
    const router = isCatchAll(route.url) ? catchAll : paths
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (!methods.includes(method)) methods.push(method)
      if (!router.hasRoute(method, route.url)) router.on(method, route.url, () => {})
    }
  })
  const rank = (method: string) => (canonical.includes(method) ? canonical.indexOf(method) : canonical.length)
  return (url) => {
    const found = methods.filter((method) => paths.find(method, url) !== null)
    if (found.length === 0) return []
    for (const method of methods) if (!found.includes(method) && catchAll.find(method, url)) found.push(method)
    return found.sort((a, b) => rank(a) - rank(b))
  }
}
