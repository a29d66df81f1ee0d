import { type ErrorEnvelope, failure } from '@weft/api-shared/http/envelope'
import { codeByStatus, type FieldError } from '@weft/api-shared/http/errors'
import { bindingFieldError, fieldErrors, type ValidationEntry } from '@weft/api-shared/http/field-errors'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isDatabaseUnavailable, isInvalidValue, loggableError, violatedUniqueConstraint } from '../db/errors.js'
import {
  type CatalogueEntry,
  type ErrorCode,
  errorCatalogue,
  messages,
  RETRY_AFTER_SECONDS,
  validationMessage,
} from './errors.js'

interface ClassifiedError {
  statusCode: number
  body: ErrorEnvelope
  headers?: Record<string, string>
}

/** Unique constraints of the schema and the request field each one guards. */
const uniqueFields: Record<string, string> = { users_email_key: 'email', users_username_key: 'username' }

/** The catalogue's messages in place of Fastify's parser wording. */
const messageByFastifyCode: Record<string, string> = {
  FST_ERR_BAD_URL: messages.badUrl,
  FST_ERR_MAX_PARAM_LENGTH: messages.paramTooLong,
  FST_ERR_CTP_INVALID_JSON_BODY: messages.notJson,
}

/** @fastify/static's refusal of a path outside its root. */
const staticPathOutsideRoot = 'FST_STATIC_FORBIDDEN_PATH'

const isCatalogued = (code: string): code is ErrorCode => Object.hasOwn(errorCatalogue, code)

type ApiError = FastifyError & Record<string, unknown>

/** One family of errors: its answer, or `undefined` when the error is not of that family. */
type Rule = (error: ApiError, code: string, status: number, bodyLimit: number) => ClassifiedError | undefined

/**
 * A 415 is about the body's media type, or about its Content-Encoding (a coding @weft/context does not decode,
 * or codings stacked): each says what to send instead.
 */
const unsupportedBody = (error: { code?: string; message?: string }) =>
  error.code === 'WEFT_UNSUPPORTED_ENCODING' || error.code === 'WEFT_STACKED_ENCODING'
    ? `${error.message}; send the body as JSON, uncompressed or gzip, deflate or br`
    : messages.notJsonMediaType

/** An answer with the catalogue's status for `code`, its challenge on a 401 and `Retry-After` when given. */
function answer(
  code: ErrorCode,
  message: string,
  extra: { errors?: FieldError[]; retryAfter?: number } = {},
): ClassifiedError {
  const entry: CatalogueEntry = errorCatalogue[code]
  const headers: Record<string, string> = {}
  if (entry.challenge !== undefined) headers['www-authenticate'] = entry.challenge
  if (extra.retryAfter !== undefined) headers['retry-after'] = String(extra.retryAfter)
  const body = failure(code, message, {
    ...(extra.errors ? { errors: extra.errors } : {}),
    ...(extra.retryAfter === undefined ? {} : { retry_after: extra.retryAfter }),
  })
  return { statusCode: entry.status, body, headers }
}

const validationFailed = (errors: FieldError[]) => answer('VALIDATION_FAILED', validationMessage(errors), { errors })

/**
 * Failed rules: the ones checked in code (`validationFailed`, their words as given), binding's
 * `ValidationError` (and Fastify's, in the same shape), put in words.
 */
const fromValidation: Rule = (error) => {
  if (Array.isArray(error.fieldErrors)) return validationFailed(error.fieldErrors as FieldError[])
  if (!Array.isArray(error.validation)) return undefined
  // binding's ValidationError names its source (`uri`, `body`...) where Fastify names `params`.
  const source: unknown = error.validationContext
  if (source === 'params' || source === 'uri') return answer('INVALID_ID', messages.invalidId)
  return validationFailed(fieldErrors(error.validation as ValidationEntry[]))
}

/** Values binding could not convert: a bad path id, a body field of the wrong type or unknown. */
const fromBinding: Rule = (error, code) => {
  if (code !== 'WEFT_BIND_ERROR' && code !== 'WEFT_BAD_REQUEST') return undefined
  if (error.source === 'uri' || error.source === 'params') return answer('INVALID_ID', messages.invalidId)
  if (code === 'WEFT_BIND_ERROR' && typeof error.field === 'string' && error.field !== '') {
    return validationFailed([bindingFieldError(error.field, error.cause)])
  }
  return answer('BAD_REQUEST', messages.notAnObject)
}

/** The API's own errors keep their code and message; the catalogue adds their headers. */
const fromOwnError: Rule = (error, code, status) => {
  if (!isCatalogued(code) || errorCatalogue[code].status !== status) return undefined
  const retryAfter = typeof error.retryAfter === 'number' ? error.retryAfter : undefined
  return answer(code, error.message, retryAfter === undefined ? {} : { retryAfter })
}

/** Database errors: duplicates (409), unstorable values (400), outages and timeouts (503). */
const fromDatabase: Rule = (error, code) => {
  const constraint = violatedUniqueConstraint(error)
  if (constraint !== undefined) {
    const field = uniqueFields[constraint] ?? 'unknown'
    return answer('CONFLICT', messages.taken(field), {
      errors: [{ field, rule: 'unique', message: 'is already taken' }],
    })
  }
  if (isInvalidValue(error)) return answer('BAD_REQUEST', messages.unstorable)
  // A handler that outlived `handlerTimeout` was waiting on a database that neither answers nor fails.
  if (isDatabaseUnavailable(error) || code === 'FST_ERR_HANDLER_TIMEOUT') {
    return answer('UNAVAILABLE', messages.databaseUnavailable(RETRY_AFTER_SECONDS), { retryAfter: RETRY_AFTER_SECONDS })
  }
  return undefined
}

/** Any other client error (Fastify's, a plugin's): the catalogue's code for its status, and its message. */
const fromClientStatus: Rule = (error, code, status, bodyLimit) => {
  if (status < 400 || status >= 500) return undefined
  if (status === 413) return answer('PAYLOAD_TOO_LARGE', messages.tooLarge(bodyLimit))
  if (status === 415) return answer('UNSUPPORTED_MEDIA_TYPE', unsupportedBody(error))
  return answer(codeByStatus[status] ?? 'BAD_REQUEST', messageByFastifyCode[code] ?? error.message)
}

const rules = [fromValidation, fromBinding, fromOwnError, fromDatabase, fromClientStatus]

/**
 * Turns any thrown error into a status and an envelope; what no rule claims is a bare 500. `bodyLimit` is the
 * route's, named in a 413's message.
 */
export function classifyError(error: ApiError, bodyLimit = 0): ClassifiedError {
  const code = typeof error.code === 'string' ? error.code : ''
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500
  for (const rule of rules) {
    const classified = rule(error, code, status, bodyLimit)
    if (classified) return classified
  }
  return answer('INTERNAL', messages.internal)
}

/**
 * Fastify's `frameworkErrors` option: errors raised before routing (a URL that is not valid percent-encoding, a
 * path parameter over `maxParamLength`) leave in the same envelope.
 */
export function frameworkErrors(error: unknown, _request: FastifyRequest, reply: FastifyReply): void {
  const { statusCode, body, headers } = classifyError(error as ApiError)
  reply
    .code(statusCode)
    .headers(headers ?? {})
    .send(body)
}

/**
 * True when the error is the request's own stream failing: the client closed the connection (or Node closed it
 * at the request timeout) before the body had arrived. Node calls that ECONNRESET, as a database driver does a
 * lost connection: it is the client's doing, not a fault of the server.
 */
const requestAborted = (error: unknown, request: FastifyRequest) =>
  error !== null && error !== undefined && error === request.raw.errored

/**
 * Installs the one error handler: every error (the API's, Fastify's, plugins', binding's, the database's)
 * leaves as the error envelope, never as a stack, driver text or SQL. Server faults are logged without query
 * text or parameters. (Requests no route takes are answered by `not-found.ts`.)
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: ApiError, request: FastifyRequest, reply: FastifyReply) => {
    // A path that climbs out of the docs' static folder (`/docs/static/%2e%2e/...`) names no file: a 404.
    if (error?.code === staticPathOutsideRoot) return reply.callNotFound()
    const { statusCode, body, headers } = requestAborted(error, request)
      ? answer('BAD_REQUEST', messages.incomplete)
      : classifyError(error, request.routeOptions.bodyLimit)
    if (statusCode >= 500) {
      request.log.error({ err: loggableError(error), code: body.code }, 'request failed')
    } else {
      request.log.info({ code: body.code, statusCode }, 'request rejected')
    }
    reply.code(statusCode)
    if (headers) reply.headers(headers)
    return reply.send(body)
  })
}
