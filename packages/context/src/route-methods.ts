import type { FastifyInstance } from 'fastify'
import FindMyWay, { type HTTPMethod } from 'find-my-way'

/** The order of an `Allow` list; methods it does not name follow in the order routes first used them. */
const canonical = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
const rank = (method: string) => (canonical.includes(method) ? canonical.indexOf(method) : canonical.length)

/** A catch-all route (`OPTIONS *` of a CORS plugin) is no evidence that a path exists. */
const isCatchAll = (url: string) => url === '*' || url === '/*'

type RouterConfig = {
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  maxParamLength?: number
  useSemicolonDelimiter?: boolean
  caseSensitive?: boolean
}

/** The options of Fastify's router that decide which paths a route matches, as the app set them. */
function matchingOf(app: FastifyInstance): RouterConfig {
  const config = app.initialConfig as RouterConfig & { routerOptions?: RouterConfig }
  const router = config.routerOptions ?? config
  return {
    ignoreTrailingSlash: router.ignoreTrailingSlash,
    ignoreDuplicateSlashes: router.ignoreDuplicateSlashes,
    maxParamLength: router.maxParamLength,
    useSemicolonDelimiter: router.useSemicolonDelimiter,
    caseSensitive: router.caseSensitive ?? config.caseSensitive,
  }
}

/**
 * The methods each path answers, for a not-found handler that answers 405 with `Allow` where
 * Fastify answers 404 (RFC 9110 §15.5.6; Fiber does the same). Routes are recorded as they are
 * added, in this context and the ones registered inside it, so call it before them. Paths match as
 * in Fastify's router (the same find-my-way, with the app's options); a path that only a catch-all
 * route matches has no methods.
 *
 * @example
 * const methodsOf = routeMethods(app)
 * app.get('/users/:id', ...)
 * methodsOf('/users/7?full=1') // ['GET', 'HEAD']
 */
export function routeMethods(app: FastifyInstance): (url: string) => string[] {
  const matching = matchingOf(app)
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
  return (url) => {
    const found = methods.filter((method) => paths.find(method, url) !== null)
    if (found.length === 0) return []
    for (const method of methods) if (!found.includes(method) && catchAll.find(method, url)) found.push(method)
    return found.sort((a, b) => rank(a) - rank(b))
  }
}
