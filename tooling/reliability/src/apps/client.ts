import type { FastifyInstance, HTTPMethods } from 'fastify'

/** An answer of one of the APIs, body parsed. */
export interface ApiAnswer {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: Record<string, unknown> & { status?: unknown; code?: unknown; message?: unknown; data?: unknown }
}

/** Sends one JSON request through `inject` and parses the envelope. */
export async function call(
  app: FastifyInstance,
  method: HTTPMethods,
  url: string,
  options: { body?: unknown; token?: string; authorization?: string; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (options.authorization !== undefined) headers.authorization = options.authorization
  const response = await app.inject({
    method,
    url,
    headers,
    ...(options.body === undefined ? {} : { payload: options.body as object }),
  })
  let body: ApiAnswer['body'] = {}
  try {
    body = JSON.parse(response.body) as ApiAnswer['body']
  } catch {
    body = { raw: response.body }
  }
  return { status: response.statusCode, headers: response.headers, body }
}

/** `data` of a success envelope, failing loudly (with the answer) when the call did not succeed. */
export function dataOf<T>(answer: ApiAnswer, expected: number): T {
  if (answer.status !== expected) {
    throw new Error(`expected ${expected}, got ${answer.status}: ${JSON.stringify(answer.body)}`)
  }
  return answer.body.data as T
}

/** Error codes the API contract documents (issue 6's list and the codes the two APIs declare). */
export const documentedCodes: ReadonlySet<string> = new Set([
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_ID',
  'INVALID_CURSOR',
  'INVALID_PAGINATION',
  'UNAUTHENTICATED',
  'INVALID_TOKEN',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'UNAVAILABLE',
  'INTERNAL',
])

/** A SECRET the suite knows, so it can forge tokens signed with it. */
export const suiteSecret = 'reliability-suite-secret-0123456789-abcdefghijklmnop'
