import type { ErrorEnvelope } from '@weft/api-shared/http/envelope'
import { codeByStatus } from '@weft/api-shared/http/errors'
import { bindingFieldError, fieldErrors, type ValidationEntry } from '@weft/api-shared/http/field-errors'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { databaseUnavailable, foreignKeyViolation, invalidValue, loggableError, uniqueViolation } from '../db/errors.js'
import {
  ApiError,
  type CatalogueEntry,
  type ErrorCode,
  errorCatalogue,
  messages,
  unavailable,
  validationFailed,
} from './errors.js'

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

const idSources = new Set(['params', 'uri'])

/** @fastify/static's refusal of a path outside its root. */
const staticPathOutsideRoot = 'FST_STATIC_FORBIDDEN_PATH'

/**
 * Client errors of Fastify and the Weft packages, by their stable `code`: the catalogue's code, and the
 * catalogue's message where theirs is a parser's wording.
 */
const clientErrors: Record<string, { code: ErrorCode; message?: string }> = {
  WEFT_CURSOR_TOO_LONG: { code: 'INVALID_CURSOR' },
  WEFT_CURSOR_INVALID: { code: 'INVALID_CURSOR' },
  FST_ERR_BAD_URL: { code: 'BAD_REQUEST', message: messages.badUrl },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'BAD_REQUEST', message: messages.paramTooLong },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'BAD_REQUEST', message: messages.notJson },
}

/**
 * @weft/binding's `BindError`: a path id that is not an integer → INVALID_ID; a body field of the wrong type
 * or an unknown body field → VALIDATION_FAILED naming it; a body that is not an object at all → BAD_REQUEST.
 */
function bindError(error: AnyError): ApiError {
  if (error.source === 'uri') return new ApiError('INVALID_ID', messages.invalidId)
  const field = error.field ?? ''
  if (field === '') return new ApiError('BAD_REQUEST', messages.notAnObject)
  return validationFailed([bindingFieldError(field, error.cause)])
}

/**
 * A 415 is about the body's media type, or about its Content-Encoding (this API reads bodies uncompressed):
 * each says what to send instead.
 */
const unsupportedBody = (error: { code?: string; message?: string }) =>
  error.code === 'WEFT_UNSUPPORTED_ENCODING' ? (error.message ?? messages.notJsonMediaType) : messages.notJsonMediaType

/** Turns any thrown value into the API error it stands for. Exported for tests of the mapping. */
export function toApiError(thrown: unknown, bodyLimit?: number): ApiError {
  if (thrown instanceof ApiError) return thrown
  const error = (thrown ?? {}) as AnyError
  if (Array.isArray(error.validation)) {
    if (idSources.has(error.validationContext ?? '')) return new ApiError('INVALID_ID', messages.invalidId)
    return validationFailed(fieldErrors(error.validation))
  }
  if (error.code === 'WEFT_BIND_ERROR') return bindError(error)
  const constraint = uniqueViolation(thrown)
  if (constraint !== undefined) {
    const field = conflictFields[constraint] ?? 'resource'
    return new ApiError('CONFLICT', messages.taken(field), {
      errors: [{ field, rule: 'unique', message: 'is already taken' }],
    })
  }
  if (foreignKeyViolation(thrown)) {
    return new ApiError('CONFLICT', 'a resource this request refers to no longer exists')
  }
  if (invalidValue(thrown)) return new ApiError('BAD_REQUEST', messages.unstorable)
  // A handler that outlived `handlerTimeout` was waiting on a database that neither answers nor fails.
  if (databaseUnavailable(thrown) || error.code === 'FST_ERR_HANDLER_TIMEOUT') return unavailable()
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', messages.tooLarge(bodyLimit ?? 0))
  if (status === 415) {
    // @weft/binding's refusal of a coded body says which coding the API takes (RFC 9110 §12.5.3)
    const headers = error.code === 'WEFT_UNSUPPORTED_ENCODING' ? { 'accept-encoding': 'identity' } : undefined
    return new ApiError('UNSUPPORTED_MEDIA_TYPE', unsupportedBody(error), { headers })
  }
  if (status >= 400 && status < 500) {
    const known = error.code === undefined ? undefined : clientErrors[error.code]
    const code = known?.code ?? codeByStatus[status] ?? 'BAD_REQUEST'
    // Fastify's and the packages' other 4xx messages describe the request, never internals.
    return new ApiError(code, known?.message ?? (error.message || 'bad request'))
  }
  return new ApiError('INTERNAL', messages.internal)
}

function render(reply: FastifyReply, error: ApiError): ErrorEnvelope {
  reply.code(error.statusCode)
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value)
  const entry: CatalogueEntry = errorCatalogue[error.code]
  if (entry.challenge !== undefined) reply.header('www-authenticate', entry.challenge)
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter))
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

/**
 * True when the error is the request's own stream failing: the client closed the connection (or Node closed it
 * at the request timeout) before the body had arrived. Node calls that ECONNRESET, as a database driver does a
 * lost connection: it is the client's doing, not a fault of the server.
 */
const requestAborted = (thrown: unknown, request: FastifyRequest) =>
  thrown !== null && thrown !== undefined && thrown === request.raw.errored

/** Installs the one error handler: every failure leaves as an error envelope (the not-found handler's too). */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((thrown: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // A path that climbs out of the docs' static folder (`/docs/static/%2e%2e/...`) names no file: a 404.
    if ((thrown as AnyError | undefined)?.code === staticPathOutsideRoot) return reply.callNotFound()
    const error = requestAborted(thrown, request)
      ? new ApiError('BAD_REQUEST', messages.incomplete)
      : toApiError(thrown, request.routeOptions.bodyLimit)
    if (error.statusCode >= 500) request.log.error({ err: loggableError(thrown), code: error.code }, 'request failed')
    else request.log.info({ code: error.code, statusCode: error.statusCode }, error.message)
    return reply.send(render(reply, error))
  })
}
