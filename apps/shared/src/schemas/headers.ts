/** A response header the READMEs promise: its component in the document, type and meaning. */
export interface HeaderDoc {
  component: string
  type: 'string' | 'integer'
  description: string
}

/** Every documented response header, by name. Each is sent every time it is documented. */
export const responseHeaders = {
  location: { component: 'Location', type: 'string', description: 'the path of the created resource' },
  'retry-after': { component: 'RetryAfter', type: 'integer', description: 'seconds to wait before retrying' },
  'www-authenticate': {
    component: 'WwwAuthenticate',
    type: 'string',
    description:
      'the scheme to authenticate with: `Bearer realm="api"`, plus `error="invalid_token"` for a refused token',
  },
  'x-ratelimit-limit': {
    component: 'RateLimitLimit',
    type: 'integer',
    description: 'requests one address may make per window (@fastify/rate-limit)',
  },
  'x-ratelimit-remaining': {
    component: 'RateLimitRemaining',
    type: 'integer',
    description: 'requests left in the current window',
  },
  'x-ratelimit-reset': {
    component: 'RateLimitReset',
    type: 'integer',
    description: 'seconds until the window starts again',
  },
} as const satisfies Record<string, HeaderDoc>

export type HeaderName = keyof typeof responseHeaders

/** The headers @fastify/rate-limit sends with every answer of a rate-limited operation. */
export const rateLimitHeaders: HeaderName[] = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']

/** `components.headers` of the document: each header once, required. */
export function headerComponents() {
  return Object.fromEntries(
    Object.values(responseHeaders).map(({ component, type, description }) => [
      component,
      { description, required: true, schema: { type } },
    ]),
  )
}

type Responses = Record<string, { headers?: Record<string, unknown> }>
type Paths = Record<string, Record<string, { responses?: Responses }>>

/**
 * Points every response header of the document at its component (`#/components/headers/RetryAfter`): one
 * definition each, marked required there, which @fastify/swagger cannot say of a route's header.
 */
export function referenceHeaders<T extends { paths?: object }>(document: T): T {
  for (const item of Object.values((document.paths ?? {}) as Paths)) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values(operation.responses ?? {})) {
        for (const name of Object.keys(response.headers ?? {})) {
          const doc: HeaderDoc | undefined = responseHeaders[name as HeaderName]
          if (doc && response.headers) response.headers[name] = { $ref: `#/components/headers/${doc.component}` }
        }
      }
    }
  }
  return document
}
