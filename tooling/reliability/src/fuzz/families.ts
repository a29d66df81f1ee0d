import fc from 'fast-check'
import { hostileBodies } from './inputs/bodies.js'
import { hostileCursors } from './inputs/cursors.js'
import { hostileHeaders } from './inputs/headers.js'
import { hostileIds } from './inputs/ids.js'
import { queryString } from './inputs/query.js'
import { percentEncode } from './inputs/text.js'
import { type SchemaFamilyName, schemaFamiliesOf } from './schema-families.js'
import { sessionAuthorization } from './session.js'
import type { FuzzRequest, FuzzRoute, FuzzTarget } from './target.js'

/** The input families of the issue, each fuzzed with its own seed and share of the inputs. */
export type FamilyName = 'query' | 'headers' | 'bodies' | 'cursors' | 'ids' | SchemaFamilyName

const withId = (path: string, id: string) => path.replace(':id', id)

/** The route's documented operation, for the document oracle. */
const operationOf = (route: FuzzRoute): { operation?: string } =>
  route.operation === undefined ? {} : { operation: route.operation }

/** A route, with its `:id` filled by a small existing id. */
const concretePath = (route: FuzzRoute) => fc.integer({ min: 1, max: 5 }).map((id) => withId(route.path, String(id)))

/**
 * A valid `Authorization` on four requests in five to a route behind auth: the session user's token where
 * the target has a session (a fuzzed logout then ends only that session, which renews itself), else one
 * of the target's seeded tokens.
 */
const authFor = (target: FuzzTarget, route: FuzzRoute): fc.Arbitrary<Record<string, string>> => {
  if (!route.auth) return fc.constant({})
  const tokens = target.session ? [sessionAuthorization] : target.authorizations
  if (tokens.length === 0) return fc.constant({})
  return fc
    .option(fc.constantFrom(...tokens), { freq: 4 })
    .map((a): Record<string, string> => (a === null ? {} : { authorization: a }))
}

const pick = <T>(items: readonly T[], what: string): fc.Arbitrary<T> => {
  if (items.length === 0) throw new Error(`no ${what} to fuzz`)
  return fc.constantFrom(...items)
}

function queryFamily(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return pick(target.routes, 'routes').chain((route) =>
    fc.tuple(concretePath(route), queryString(route.fields ?? []), authFor(target, route)).map(
      ([path, qs, headers]): FuzzRequest => ({
        method: route.method,
        url: `${path}?${qs}`,
        headers,
        ...operationOf(route),
      }),
    ),
  )
}

function headersFamily(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return pick(target.routes, 'routes').chain((route) =>
    fc.tuple(concretePath(route), hostileHeaders, authFor(target, route)).map(
      ([url, hostile, auth]): FuzzRequest => ({
        method: route.method,
        url,
        headers: { ...hostile, ...auth },
        ...operationOf(route),
      }),
    ),
  )
}

function bodiesFamily(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const routes = target.routes.filter((r) => r.method === 'POST' || r.method === 'PATCH' || r.method === 'PUT')
  return pick(routes, 'routes with bodies').chain((route) =>
    fc
      .tuple(concretePath(route), hostileBodies(route.fields ?? ['name']), authFor(target, route))
      .map(([url, body, auth]): FuzzRequest => {
        const headers: Record<string, string> = { ...auth }
        if (body.contentType !== undefined) headers['content-type'] = body.contentType
        return { method: route.method, url, headers, payload: body.payload, ...operationOf(route) }
      }),
  )
}

function cursorsFamily(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const cursor = target.cursor
  if (!cursor) throw new Error(`${target.name} has no cursor route`)
  const extra = cursor.extraQuery ?? fc.constant('')
  return fc.tuple(hostileCursors(cursor.format), extra, authFor(target, cursor.route)).map(
    ([token, more, headers]): FuzzRequest => ({
      method: cursor.route.method,
      url: `${cursor.route.path}?cursor=${percentEncode(token)}${more ? `&${more}` : ''}`,
      headers,
    }),
  )
}

function idsFamily(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const routes = target.routes.filter((r) => r.path.includes(':id'))
  return pick(routes, 'routes with ids').chain((route) =>
    fc.tuple(hostileIds, authFor(target, route)).map(([id, headers]): FuzzRequest => {
      const request: FuzzRequest = { method: route.method, url: withId(route.path, id), headers, ...operationOf(route) }
      if (route.method !== 'GET' && route.method !== 'DELETE') {
        request.headers = { ...headers, 'content-type': 'application/json' }
        request.payload = Buffer.from('{}')
      }
      return request
    }),
  )
}

/** The families a target supports (cursors only where it has a cursor route). */
export function familiesOf(target: FuzzTarget): Partial<Record<FamilyName, fc.Arbitrary<FuzzRequest>>> {
  const families: Partial<Record<FamilyName, fc.Arbitrary<FuzzRequest>>> = {
    query: queryFamily(target),
    headers: headersFamily(target),
  }
  if (target.routes.some((r) => r.method !== 'GET' && r.method !== 'DELETE')) families.bodies = bodiesFamily(target)
  if (target.cursor) families.cursors = cursorsFamily(target)
  if (target.routes.some((r) => r.path.includes(':id'))) families.ids = idsFamily(target)
  return { ...families, ...schemaFamiliesOf(target.operations ?? []) }
}
