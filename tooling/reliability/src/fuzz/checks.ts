import type { FuzzRequest, FuzzResponse } from './target.js'

/** Lines of a V8 stack trace (raw or JSON-escaped), or paths into the code: never part of an answer. */
const leakPatterns = [/(\n|\\n)\s+at [^\n]+:\d+:\d+/, /node_modules\//, /\.ts:\d+/]

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Checks that hold for every target: no 5xx, no stack or source path in the body. */
export function checkCommon(response: FuzzResponse): string[] {
  const problems: string[] = []
  if (response.statusCode >= 500) problems.push(`status ${response.statusCode}`)
  for (const pattern of leakPatterns) {
    if (pattern.test(response.body)) problems.push(`body leaks internals (${pattern})`)
  }
  return problems
}

/** Keys anywhere in a JSON value that would mean a credential leaked. */
function leakedSecretKeys(value: unknown, found: string[] = [], depth = 0): string[] {
  if (depth > 20) return found
  if (Array.isArray(value)) for (const item of value) leakedSecretKeys(item, found, depth + 1)
  else if (isRecord(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (/^(password|password_hash|passwordHash|hash|salt|secret)$/i.test(key)) found.push(key)
      leakedSecretKeys(inner, found, depth + 1)
    }
  }
  return found
}

/**
 * The example APIs' contract (issues 6 and 7): every JSON body is `{ status, message, data }`; errors are
 * `status: 'error'`, `data: null`, a `code` from the documented list and, when present, `errors` as
 * `{ field, rule, message }[]`; 401 carries `WWW-Authenticate: Bearer`; 429 and 503 carry `Retry-After`.
 */
export function checkApiEnvelope(codes: ReadonlySet<string>) {
  return (request: FuzzRequest, response: FuzzResponse): string[] => {
    const problems = checkCommon(response)
    const status = response.statusCode
    const contentType = String(response.headers['content-type'] ?? '')
    if (request.method === 'HEAD' || status === 204 || status === 304) return problems
    const json = contentType.startsWith('application/json')
    if (!json) {
      if (status >= 400) problems.push(`error ${status} is not JSON (content-type "${contentType}")`)
      return problems
    }
    const body = parseJson(response.body)
    if (!isRecord(body)) return [...problems, 'body is not a JSON object']
    if (typeof body.message !== 'string') problems.push('message is not a string')
    if (!('data' in body)) problems.push('data is missing')
    const secrets = leakedSecretKeys(body)
    if (secrets.length > 0) problems.push(`body carries ${secrets.join(', ')}`)
    if (status >= 400) {
      if (body.status !== 'error') problems.push(`status field is ${JSON.stringify(body.status)}, not "error"`)
      if (body.data !== null) problems.push('error data is not null')
      if (typeof body.code !== 'string' || !codes.has(body.code))
        problems.push(`code ${JSON.stringify(body.code)} is not documented`)
      if (body.errors !== undefined) {
        const ok =
          Array.isArray(body.errors) &&
          body.errors.every((e) => isRecord(e) && ['field', 'rule', 'message'].every((k) => typeof e[k] === 'string'))
        if (!ok) problems.push('errors is not [{ field, rule, message }]')
      }
      if (status === 401 && !/^Bearer\b/i.test(String(response.headers['www-authenticate'] ?? ''))) {
        problems.push('401 without WWW-Authenticate: Bearer')
      }
      if ((status === 429 || status === 503) && response.headers['retry-after'] === undefined) {
        problems.push(`${status} without Retry-After`)
      }
    } else if (body.status !== 'success') {
      problems.push(`status field is ${JSON.stringify(body.status)}, not "success"`)
    }
    return problems
  }
}

/**
 * The packages' contract as a plain Fastify app shows it: errors in Fastify's shape (`statusCode`,
 * `code`, `error`, `message`) with a stable `WEFT_*` or `FST_*` code.
 */
export function checkFastifyError(request: FuzzRequest, response: FuzzResponse): string[] {
  const problems = checkCommon(response)
  const status = response.statusCode
  if (status < 400 || request.method === 'HEAD') return problems
  const body = parseJson(response.body)
  if (!isRecord(body)) return [...problems, `error ${status} body is not a JSON object`]
  if (body.statusCode !== status) problems.push(`statusCode ${JSON.stringify(body.statusCode)} differs from ${status}`)
  if (typeof body.code !== 'string' || !/^(WEFT|FST)_[A-Z0-9_]+$/.test(body.code)) {
    problems.push(`code ${JSON.stringify(body.code)} is not a stable WEFT_/FST_ code`)
  }
  if (typeof body.message !== 'string' || body.message === '') problems.push('message is missing')
  return problems
}
