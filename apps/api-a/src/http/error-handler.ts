import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { databaseUnavailable, foreignKeyViolation, uniqueViolation } from '../db/errors.js'
import type { ErrorCode, ErrorEnvelope, FieldError } from './envelope.js'
import { ApiError, unavailable } from './errors.js'

/** Fastify's (and @weft/binding's) validation entry: Ajv's shape. */
interface ValidationEntry {
  instancePath?: string
  keyword?: string
  message?: string
  params?: Record<string, unknown>
}

type AnyError = Partial<FastifyError> & {
  validation?: ValidationEntry[]
  validationContext?: string
  source?: string
  field?: string
}

/** Unique constraints of the schema → the field a client can fix. */
const conflictFields: Record<string, string> = {
  users_email_key: 'email',
  users_username_key: 'username',
}

function pathOf(instancePath: string | undefined): string[] {
  return (instancePath ?? '').split('/').filter(Boolean)
}

/** Names listed in a params entry: Ajv gives one string, TypeBox an array. */
function namesIn(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

function expand(entry: ValidationEntry): FieldError[] {
  const base = pathOf(entry.instancePath)
  const keyword = entry.keyword ?? 'invalid'
  const params = entry.params ?? {}
  if (keyword === 'required') {
    return namesIn(params.missingProperty ?? params.requiredProperties).map((name) => ({
      field: [...base, name].join('.'),
      rule: 'required',
      message: 'is required',
    }))
  }
  if (keyword === 'additionalProperties') {
    return namesIn(params.additionalProperty ?? params.additionalProperties).map((name) => ({
      field: [...base, name].join('.'),
      rule: 'additionalProperties',
      message: 'is not an accepted field',
    }))
  }
  // TypeBox reports an unexpected property a second time as the `false` schema it failed.
  if (keyword === 'boolean')
    return [{ field: base.join('.'), rule: 'additionalProperties', message: 'is not an accepted field' }]
  return [{ field: base.join('.'), rule: keyword, message: entry.message ?? 'is invalid' }]
}

function fieldErrors(entries: ValidationEntry[]): FieldError[] {
  const seen = new Set<string>()
  return entries.flatMap(expand).filter((e) => {
    const key = `${e.field}\u0000${e.rule}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const idSources = new Set(['params', 'uri'])

/** Client errors of Fastify and the Weft packages, by their stable `code`. */
const clientCodes: Record<string, ErrorCode> = {
  WEFT_CURSOR_TOO_LONG: 'INVALID_CURSOR',
  WEFT_CURSOR_INVALID: 'INVALID_CURSOR',
  WEFT_PAGINATION_INVALID: 'INVALID_PAGINATION',
  WEFT_BAD_REQUEST: 'BAD_REQUEST',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  WEFT_UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BAD_REQUEST',
}

/** Status-derived codes for any other 4xx a plugin throws. */
const statusCodes: Record<number, ErrorCode> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
}

/**
 * @weft/binding's `BindError`: a path id that is not an integer → INVALID_ID; a body field of the wrong type
 * or an unknown body field → VALIDATION_FAILED naming it; a body that is not an object at all → BAD_REQUEST.
 */
function bindError(error: AnyError): ApiError {
  if (error.source === 'uri') return new ApiError(400, 'INVALID_ID', 'id must be a positive integer')
  const field = error.field ?? ''
  const reason = (error.cause as Error | undefined)?.message ?? 'is invalid'
  if (field === '') return new ApiError(400, 'BAD_REQUEST', error.message ?? 'the request could not be read')
  const unknown = reason.startsWith('unknown key')
  const entry: FieldError = unknown
    ? { field, rule: 'additionalProperties', message: 'is not an accepted field' }
    : { field, rule: 'type', message: reason }
  return new ApiError(400, 'VALIDATION_FAILED', `${field}: ${entry.message}`, { errors: [entry] })
}

/** Turns any thrown value into the API error it stands for. Exported for tests of the mapping. */
export function toApiError(thrown: unknown): ApiError {
  if (thrown instanceof ApiError) return thrown
  const error = (thrown ?? {}) as AnyError
  if (Array.isArray(error.validation)) {
    const errors = fieldErrors(error.validation)
    if (idSources.has(error.validationContext ?? '')) {
      return new ApiError(400, 'INVALID_ID', 'id must be a positive integer', { errors })
    }
    return new ApiError(
      400,
      'VALIDATION_FAILED',
      errors.map((e) => `${e.field || '(root)'}: ${e.message}`).join('; '),
      {
        errors,
      },
    )
  }
  if (error.code === 'WEFT_BIND_ERROR') return bindError(error)
  const constraint = uniqueViolation(thrown)
  if (constraint !== undefined) {
    const field = conflictFields[constraint] ?? 'resource'
    return new ApiError(409, 'CONFLICT', `${field} is already taken`, {
      errors: [{ field, rule: 'unique', message: `${field} is already taken` }],
    })
  }
  if (foreignKeyViolation(thrown)) {
    return new ApiError(409, 'CONFLICT', 'a resource this request refers to no longer exists')
  }
  // A handler that outlived `handlerTimeout` was waiting on a database that neither answers nor fails.
  if (databaseUnavailable(thrown) || error.code === 'FST_ERR_HANDLER_TIMEOUT') return unavailable()
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500
  if (status >= 400 && status < 500) {
    const code = (error.code && clientCodes[error.code]) || statusCodes[status] || 'BAD_REQUEST'
    // Fastify's and the packages' 4xx messages describe the request, never internals.
    return new ApiError(status, code, error.message || 'bad request')
  }
  return new ApiError(500, 'INTERNAL', 'internal server error')
}

function render(reply: FastifyReply, error: ApiError): ErrorEnvelope {
  reply.code(error.statusCode)
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
  if (error.retryAfter !== undefined && !reply.hasHeader('retry-after')) {
    reply.header('retry-after', String(error.retryAfter))
  }
  const body: ErrorEnvelope = { status: 'error', code: error.code, message: error.message, data: null }
  if (error.errors) body.errors = error.errors
  if (error.retryAfter !== undefined) body.retry_after = error.retryAfter
  return body
}

/**
 * Fastify's `frameworkErrors` option: errors raised before routing (a URL that is not valid percent-encoding)
 * leave in the same envelope.
 */
export function frameworkErrors(error: unknown, _request: FastifyRequest, reply: FastifyReply): void {
  reply.send(render(reply, toApiError(error)))
}

/** Installs the one error handler and the not-found handler: every failure leaves as an error envelope. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const error = toApiError(thrown)
    if (error.statusCode >= 500) request.log.error({ err: thrown }, 'request failed')
    else request.log.info({ code: error.code, statusCode: error.statusCode }, error.message)
    return reply.send(render(reply, error))
  })
  app.setNotFoundHandler((request, reply) =>
    reply.send(
      render(reply, new ApiError(404, 'NOT_FOUND', `route ${request.method} ${request.url.split('?')[0]} not found`)),
    ),
  )
}
