import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { innermostError, isDatabaseUnavailable, isInvalidValue, violatedUniqueConstraint } from '../db/errors.js'
import { type ErrorEnvelope, type FieldError, failure } from './envelope.js'
import { RETRY_AFTER_SECONDS } from './errors.js'

/** One entry of Fastify's (and @weft/binding's `ValidationError`'s) `validation` array. */
interface ValidationIssue {
  instancePath?: string
  keyword?: string
  message?: string
  params?: Record<string, unknown>
}

interface ClassifiedError {
  statusCode: number
  body: ErrorEnvelope
  headers?: Record<string, string>
}

/** Unique constraints of the schema and the request field each one guards. */
const uniqueFields: Record<string, string> = { users_email_key: 'email', users_username_key: 'username' }

/** Codes for 4xx errors that carry only a status (Fastify's own, plugins'). */
const codeByStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
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

/** Messages that replace Fastify's where those would echo parser internals. */
const messageByFastifyCode: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'request body is not valid JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported Content-Type: send application/json',
}

/** Codes set by this API (and kept as they are). */
const ownCodes = new Set([
  'INVALID_ID',
  'UNAUTHENTICATED',
  'INVALID_TOKEN',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  'NOT_FOUND',
  'UNAVAILABLE',
  'RATE_LIMITED',
])

function joinPath(path: string, child: string): string {
  return path ? `${path}.${child}` : child
}

function messageFor(issue: ValidationIssue): string {
  if (issue.keyword === 'additionalProperties') return 'is not an accepted field'
  if (issue.keyword === 'required') return 'is required'
  return issue.message ?? 'is invalid'
}

/**
 * One `errors[]` entry per failed rule and field. Ajv reports one missing property per issue
 * (`missingProperty`), TypeBox all of them in one (`requiredProperties`): both become one entry each.
 */
function fieldErrors(validation: ValidationIssue[]): FieldError[] {
  return validation.flatMap((issue) => {
    const path = (issue.instancePath ?? '').split('/').filter(Boolean).join('.')
    const rule = issue.keyword ?? 'invalid'
    const message = messageFor(issue)
    const { missingProperty, requiredProperties, additionalProperty } = issue.params ?? {}
    const children = Array.isArray(requiredProperties)
      ? requiredProperties.map(String)
      : [missingProperty ?? additionalProperty].filter((child) => typeof child === 'string')
    if (children.length === 0) return [{ field: path, rule, message }]
    return children.map((child) => ({ field: joinPath(path, child), rule, message }))
  })
}

/**
 * A `BindError` on a body field: the value has the wrong type, or (with `ignoreUnknownKeys: false`)
 * the key is not in the schema. Binding says which only in the cause's text.
 */
function bindFieldError(field: string, cause: unknown): FieldError {
  const text = cause instanceof Error ? cause.message : ''
  if (text.startsWith('unknown key'))
    return { field, rule: 'additionalProperties', message: 'is not an accepted field' }
  return { field, rule: 'type', message: text || 'has the wrong type' }
}

type ApiError = FastifyError & Record<string, unknown>

/** One family of errors: its answer, or `undefined` when the error is not of that family. */
type Rule = (error: ApiError, code: string, status: number) => ClassifiedError | undefined

const invalidId = (): ClassifiedError => ({
  statusCode: 400,
  body: failure('INVALID_ID', 'id must be a positive integer'),
})
const validationFailed = (errors: FieldError[]): ClassifiedError => ({
  statusCode: 400,
  body: failure('VALIDATION_FAILED', 'request validation failed', { errors }),
})

/** Schema failures: binding's `ValidationError` (and Fastify's, in the same shape). */
const fromValidation: Rule = (error) => {
  if (!Array.isArray(error.validation)) return undefined
  // binding's ValidationError names its source (`uri`, `body`...) where Fastify names `params`.
  const source: unknown = error.validationContext
  if (source === 'params' || source === 'uri') return invalidId()
  return validationFailed(fieldErrors(error.validation as ValidationIssue[]))
}

/** Values binding could not convert: a bad path id, a body field of the wrong type or unknown. */
const fromBinding: Rule = (error, code) => {
  if (code !== 'WEFT_BIND_ERROR' && code !== 'WEFT_BAD_REQUEST') return undefined
  if (error.source === 'uri' || error.source === 'params') return invalidId()
  if (code === 'WEFT_BIND_ERROR' && typeof error.field === 'string' && error.field !== '') {
    return validationFailed([bindFieldError(error.field, error.cause)])
  }
  return { statusCode: 400, body: failure('BAD_REQUEST', 'request body must be a JSON object') }
}

/** The API's own errors keep their code and message; auth and retry headers are added. */
const fromOwnError: Rule = (error, code, status) => {
  if (!ownCodes.has(code) || status < 400 || status >= 600) return undefined
  const headers: Record<string, string> = {}
  let extra = {}
  if (code === 'UNAUTHENTICATED') headers['www-authenticate'] = 'Bearer'
  if (code === 'INVALID_TOKEN') headers['www-authenticate'] = 'Bearer error="invalid_token"'
  if (code === 'UNAVAILABLE' || code === 'RATE_LIMITED') {
    const retryAfter = typeof error.retryAfter === 'number' ? error.retryAfter : RETRY_AFTER_SECONDS
    headers['retry-after'] = String(retryAfter)
    extra = { retry_after: retryAfter }
  }
  return { statusCode: status, body: failure(code, error.message, extra), headers }
}

/** Database errors: duplicates (409), unstorable values (400), outages and timeouts (503). */
const fromDatabase: Rule = (error, code) => {
  const constraint = violatedUniqueConstraint(error)
  if (constraint !== undefined) {
    const field = uniqueFields[constraint] ?? 'unknown'
    return {
      statusCode: 409,
      body: failure('CONFLICT', `${field} is already taken`, {
        errors: [{ field, rule: 'unique', message: 'is already taken' }],
      }),
    }
  }
  if (isInvalidValue(error)) {
    return { statusCode: 400, body: failure('BAD_REQUEST', 'a value in the request cannot be stored') }
  }
  // A handler that outlived `handlerTimeout` was waiting on a database that neither answers nor fails.
  if (isDatabaseUnavailable(error) || code === 'FST_ERR_HANDLER_TIMEOUT') {
    return {
      statusCode: 503,
      body: failure('UNAVAILABLE', 'service temporarily unavailable, retry later', {
        retry_after: RETRY_AFTER_SECONDS,
      }),
      headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
    }
  }
  return undefined
}

/** Any other client error (Fastify's, a plugin's) keeps its status and gets a code for it. */
const fromClientStatus: Rule = (error, code, status) => {
  if (status < 400 || status >= 500) return undefined
  const message = messageByFastifyCode[code] ?? error.message
  return { statusCode: status, body: failure(codeByStatus[status] ?? 'BAD_REQUEST', message) }
}

const rules = [fromValidation, fromBinding, fromOwnError, fromDatabase, fromClientStatus]

/** Turns any thrown error into a status and an envelope; what no rule claims is a bare 500. */
export function classifyError(error: ApiError): ClassifiedError {
  const code = typeof error.code === 'string' ? error.code : ''
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500
  for (const rule of rules) {
    const answer = rule(error, code, status)
    if (answer) return answer
  }
  return { statusCode: 500, body: failure('INTERNAL', 'internal server error') }
}

/**
 * Installs the one error handler and the not-found handler: every error (the API's, Fastify's,
 * plugins', binding's, the database's) leaves as the error envelope, never as a stack, driver text
 * or SQL. Server faults are logged without query text or parameters.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: ApiError, request: FastifyRequest, reply: FastifyReply) => {
    const { statusCode, body, headers } = classifyError(error)
    if (statusCode >= 500) {
      request.log.error({ err: { type: error.name, ...innermostError(error) }, code: body.code }, 'request failed')
    } else {
      request.log.info({ code: body.code, statusCode }, 'request rejected')
    }
    reply.code(statusCode)
    if (headers) reply.headers(headers)
    return reply.send(body)
  })

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(failure('NOT_FOUND', 'route not found')))
}
