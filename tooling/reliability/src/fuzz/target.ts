import type fc from 'fast-check'
import type { FastifyInstance, HTTPMethods } from 'fastify'
import type { CursorFormat } from './inputs/cursors.js'
import type { LogCapture } from './logs.js'
import type { ApiOperation } from './openapi/document.js'
import type { Session } from './session.js'

/** One generated request, as `app.inject` takes it. */
export interface FuzzRequest {
  method: HTTPMethods
  url: string
  headers: Record<string, string>
  payload?: Buffer
  /** The documented operation aimed at (`POST /api/auth/login`), when known: the document oracle reads it. */
  operation?: string
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
  /** The documented operation this route is. */
  operation?: string
  /** Request headers the route reads (the work oracle grows each one there; else on every GET route). */
  headers?: readonly string[]
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
  /** The operations with their schemas (from the OpenAPI document, or written out for the test app). */
  operations?: readonly ApiOperation[]
  /** The user `{session}` / `{self}` in generated requests stand for. */
  session?: Session
  /** The app's log lines, searched for secrets after every answer. */
  logs?: LogCapture
  close(): Promise<void>
}
