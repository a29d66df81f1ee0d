import type fc from 'fast-check'
import type { FastifyInstance, HTTPMethods } from 'fastify'
import type { CursorFormat } from './inputs/cursors.js'

/** One generated request, as `app.inject` takes it. */
export interface FuzzRequest {
  method: HTTPMethods
  url: string
  headers: Record<string, string>
  payload?: Buffer
}

/** What `inject` answered, reduced to what the checks read. */
export interface FuzzResponse {
  statusCode: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
}

/** A route the fuzzer may aim at; `:id` in the path is replaced by generated ids. */
export interface FuzzRoute {
  method: HTTPMethods
  path: string
  /** Sends a valid `Authorization` header on some of the requests, to get past the auth check. */
  auth?: boolean
  /** Names of the query parameters or body fields the route reads (the generators favour them). */
  fields?: readonly string[]
}

/**
 * An application under fuzz: an in-process Fastify instance and the rules its answers must follow.
 *
 * @example
 * const target = await apiATarget()
 * try { await fuzzTarget(target, { inputs: 1000 }) } finally { await target.close() }
 */
export interface FuzzTarget {
  name: string
  app: FastifyInstance
  routes: readonly FuzzRoute[]
  /** Valid `Authorization` header values (tokens of seeded users). */
  authorizations: readonly string[]
  /** The list route that takes cursors, and the cursor format. */
  cursor?: { route: FuzzRoute; format: CursorFormat; extraQuery?: fc.Arbitrary<string> }
  /**
   * The documented shape of every response: returns the problems found (empty when the response
   * follows the contract).
   */
  check(request: FuzzRequest, response: FuzzResponse): string[]
  close(): Promise<void>
}
