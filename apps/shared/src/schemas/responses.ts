import { type TSchema, Type } from 'typebox'
import type { CatalogueEntry, SharedErrorCode } from '../http/errors.js'
import { type HeaderName, rateLimitHeaders, responseHeaders } from './headers.js'

/** What any operation may answer, whatever the request. */
export const serverErrors = ['INTERNAL', 'UNAVAILABLE'] as const satisfies SharedErrorCode[]
/** What a request with a body may meet (operations that take none still parse one that is sent). */
export const bodyErrors = [
  'VALIDATION_FAILED',
  'BAD_REQUEST',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
] as const satisfies SharedErrorCode[]
/**
 * What a path with an `{id}` may meet: an id that is not a positive integer, a path that is not valid
 * percent-encoding, an id that takes the path elsewhere (`..`, empty) and so to no route.
 */
export const idErrors = ['INVALID_ID', 'BAD_REQUEST', 'NOT_FOUND'] as const satisfies SharedErrorCode[]
/** What an operation that needs a bearer token may answer. */
export const tokenErrors = ['UNAUTHENTICATED', 'INVALID_TOKEN'] as const satisfies SharedErrorCode[]

/** A documented success answer. */
export interface Success {
  description: string
  body: TSchema
  headers?: HeaderName[]
}

const json = (schema: TSchema) => ({ 'application/json': { schema } })

/** The headers an error status always comes with. */
function errorHeaders(status: number): HeaderName[] {
  if (status === 401) return ['www-authenticate']
  if (status === 429 || status === 503) return ['retry-after']
  return []
}

/** A response entry in the form both Fastify and @fastify/swagger read: description, headers, JSON body. */
function response(description: string, body: TSchema, names: HeaderName[]) {
  const headers = Object.fromEntries(
    names.map((name) => [name, { type: responseHeaders[name].type, description: responseHeaders[name].description }]),
  )
  return { description, ...(names.length > 0 ? { headers } : {}), content: json(body) }
}

/**
 * The `responses` of an API's catalogue: a route's `response` schemas, its success answers and one response per
 * status its error codes come with (the error catalogue decides the status, and says when). Fastify serializes
 * with them; @fastify/swagger documents them. `rateLimited` adds the rate-limit headers: to every answer
 * (`true`), or to those of the statuses listed.
 *
 * @example
 * const responses = responsesOf(errorCatalogue)
 * response: responses({ 200: { description: 'the product', body: ProductEnvelope } }, ['INVALID_ID', 'NOT_FOUND'])
 */
export function responsesOf<Code extends string>(catalogue: Record<Code, CatalogueEntry>) {
  /** One response for all the codes of a status: the envelope with `code` narrowed to them, the catalogue's words. */
  function errorResponse(status: number, codes: Code[], extra: HeaderName[]) {
    const body = Type.Unsafe({
      allOf: [Type.Ref('ErrorEnvelope'), Type.Object({ code: Type.String({ enum: codes }) })],
    })
    const description = codes.map((code) => `\`${code}\`: ${catalogue[code].when}.`).join(' ')
    return response(description, body, [...errorHeaders(status), ...extra])
  }

  return function responses(
    success: Record<number, Success>,
    errors: readonly Code[],
    options: { rateLimited?: boolean | readonly number[] } = {},
  ) {
    const { rateLimited } = options
    const extraFor = (status: number) =>
      rateLimited === true || (Array.isArray(rateLimited) && rateLimited.includes(status)) ? rateLimitHeaders : []
    const documented: Record<string, unknown> = {}
    for (const [status, answer] of Object.entries(success)) {
      documented[status] = response(answer.description, answer.body, [...(answer.headers ?? []), ...extraFor(+status)])
    }
    const byStatus = new Map<number, Code[]>()
    for (const code of new Set(errors)) {
      const status = catalogue[code].status
      byStatus.set(status, [...(byStatus.get(status) ?? []), code])
    }
    for (const [status, codes] of byStatus) documented[status] = errorResponse(status, codes, extraFor(status))
    return documented
  }
}
