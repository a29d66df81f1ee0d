import { Ajv, type ValidateFunction } from 'ajv'
import formats from 'ajv-formats'
import type { FuzzRequest, FuzzResponse } from '../target.js'
import type { ApiOperation, DocumentedResponse } from './document.js'

// ajv-formats is CommonJS with `exports.default`: from ESM the plugin is the module's `default`.
const addFormats = formats.default

/** The documented response for a status: the exact code, then its range (`4XX`), then `default`. */
export function documentedResponse(
  operation: ApiOperation,
  status: number,
): { key: string; response: DocumentedResponse } | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const response = operation.responses[key] ?? operation.responses[key.toLowerCase()]
    if (response) return { key, response }
  }
  return undefined
}

const mediaType = (contentType: string) => contentType.split(';')[0]?.trim().toLowerCase() ?? ''

/**
 * The URLs of an operation's path (`/api/user/:id`): each parameter one non-empty segment, a trailing slash
 * tolerated as both APIs tolerate it. `/api/user/` (an empty id) is another path (`/api/user`), whose answer
 * is not this operation's.
 */
function pathPattern(path: string): RegExp {
  const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(
    `^${path
      .split(/:[A-Za-z0-9_]+/)
      .map(literal)
      .join('[^/]+')}/?$`,
  )
}

/**
 * The document as an oracle: an answer to a request whose URL is one of the operation's, whose status the
 * operation does not document, whose Content-Type is not one the documented response lists, or whose body the
 * documented schema rejects (Ajv, formats included, OpenAPI's `nullable` understood) violates the document.
 * Each schema compiles once, on first use.
 */
export function documentOracle(operations: readonly ApiOperation[]) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false })
  addFormats(ajv)
  const byName = new Map(operations.map((op) => [op.name, { operation: op, path: pathPattern(op.path) }]))
  const compiled = new Map<string, ValidateFunction>()
  const validatorFor = (operation: ApiOperation, key: string, type: string, schema: object) => {
    const id = `${operation.name} ${key} ${type}`
    let validate = compiled.get(id)
    if (!validate) {
      validate = ajv.compile(schema)
      compiled.set(id, validate)
    }
    return validate
  }
  return (request: FuzzRequest, response: FuzzResponse): string[] => {
    const aimed = request.operation === undefined ? undefined : byName.get(request.operation)
    if (!aimed?.path.test(request.url.split('?')[0] ?? '') || request.method === 'HEAD') return []
    const { operation } = aimed
    const documented = documentedResponse(operation, response.statusCode)
    if (!documented) return [`document: ${operation.name} does not document status ${response.statusCode}`]
    const content = documented.response.content
    if (!content || Object.keys(content).length === 0) return []
    const type = mediaType(String(response.headers['content-type'] ?? ''))
    const media = content[type]
    if (!media) {
      return [
        `document: ${operation.name} ${documented.key} answers "${type}", documented ${Object.keys(content).join(', ')}`,
      ]
    }
    if (!media.schema) return []
    let body: unknown
    try {
      body = JSON.parse(response.body)
    } catch {
      return [`document: ${operation.name} ${documented.key} body is not JSON`]
    }
    const validate = validatorFor(operation, documented.key, type, media.schema)
    if (validate(body)) return []
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`)
      .join('; ')
    return [`document: ${operation.name} ${response.statusCode} body violates ${documented.key}: ${errors}`]
  }
}
