/**
 * Where a bound value came from (Fiber's `BindSource*` constants).
 *
 * @example
 * if (err instanceof BindError && err.source === BindSource.URI) reply.code(404)
 */
export const BindSource = {
  URI: 'uri',
  Query: 'query',
  Header: 'header',
  Cookie: 'cookie',
  Body: 'body',
  RespHeader: 'respHeader',
} as const

/** One of the values of {@link BindSource}. */
export type BindSource = (typeof BindSource)[keyof typeof BindSource]

/**
 * A request value could not be read or converted to the schema's type (Fiber's `BindError`).
 * Constraint failures (minimum, pattern, required...) are a {@link ValidationError} instead.
 *
 * @example
 * try { await bind(request).query(Search) } catch (err) {
 *   if (err instanceof BindError) request.log.info({ source: err.source, field: err.field })
 * }
 */
export class BindError extends Error {
  override readonly name = 'BindError'
  readonly statusCode = 400
  readonly code = 'WEFT_BIND_ERROR'
  /** The source being bound when the failure happened. */
  readonly source: BindSource
  /** The property path or request key that failed (best effort, may be empty). */
  readonly field: string
  /** The underlying error (Fiber's `Err`). */
  override readonly cause: Error

  constructor(source: BindSource, field: string, cause: Error | string) {
    const err = typeof cause === 'string' ? new Error(cause) : cause
    super(`cannot bind ${source}${field === '' ? '' : ` field "${field}"`}: ${err.message}`)
    this.source = source
    this.field = field
    this.cause = err
  }
}

/** One failed constraint, in Fastify's (Ajv's) `validation` shape. */
export type ValidationIssue = {
  instancePath: string
  keyword: string
  message: string
  params: Record<string, unknown>
}

/**
 * One issue in words: `body/title must not be empty`; a missing field is named itself,
 * `query/id is required`, not as its object's failure.
 */
function issueText(issue: ValidationIssue, subject: (path: string) => string): string {
  const missing = issue.keyword === 'required' ? issue.params.requiredProperties : undefined
  if (Array.isArray(missing) && missing.length > 0) {
    return missing
      .map((name) => `${subject(`${issue.instancePath}/${escapePointer(String(name))}`)} is required`)
      .join(', ')
  }
  return `${subject(issue.instancePath)} ${issue.message}`
}

/** A property name as a JSON Pointer segment (`~` and `/` escaped, as in `instancePath`). */
export function escapePointer(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** The property name a JSON Pointer segment stands for. */
export function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}

/**
 * The bound value broke a schema constraint (thrown by the {@link StructValidator}).
 * Never a {@link BindError}.
 */
export class ValidationError extends Error {
  override readonly name = 'ValidationError'
  readonly statusCode = 400
  readonly code = 'WEFT_VALIDATION_FAILED'
  /** Every failed constraint, as Fastify reports schema failures. */
  readonly validation: ValidationIssue[]
  /** The source that was bound (`'query'`, `'body'`...), as Fastify's `validationContext`. */
  readonly validationContext: string

  /**
   * `subject` names the value at an issue's path for the message (default: the source and the
   * path, `body/title`); `all()` passes one that names the source each field came from.
   */
  constructor(
    validationContext: string,
    validation: ValidationIssue[],
    subject: (path: string) => string = (path) => `${validationContext}${path}`,
  ) {
    const detail = validation.map((issue) => issueText(issue, subject)).join(', ')
    super(detail === '' ? `${subject('')} is invalid` : detail)
    this.validation = validation
    this.validationContext = validationContext
  }
}

/** What `withAutoHandling()` throws instead of a {@link BindError}: a plain 400. */
export class BadRequestError extends Error {
  override readonly name = 'BadRequestError'
  readonly statusCode = 400
  readonly code = 'WEFT_BAD_REQUEST'

  constructor() {
    super('Bad Request')
  }
}

/**
 * A text body (JSON, form, XML) whose bytes are not UTF-8: decoding it would put U+FFFD where the
 * client's characters were, and two different texts (two passwords) could become one.
 */
export class InvalidUtf8Error extends Error {
  override readonly name = 'InvalidUtf8Error'
  readonly statusCode = 400
  readonly code = 'WEFT_INVALID_UTF8'

  constructor() {
    super('the request body is not valid UTF-8 text')
  }
}

/**
 * A large JSON body that nests arrays and objects deeper than binding takes (256 levels): the
 * parser's work grows faster than the body there. Raised by the plugin's JSON parser.
 */
export class NestingTooDeepError extends Error {
  override readonly name = 'NestingTooDeepError'
  readonly statusCode = 400
  readonly code = 'WEFT_BODY_TOO_DEEP'
}

/**
 * A coded body (Content-Encoding) that one of the plugin's parsers would read, with no decoder
 * installed (`@weft/context` installs one): parsing the coded bytes would bind garbage or nothing.
 * The response says which coding the server takes (RFC 9110 §12.5.3).
 */
export class UnsupportedBodyEncodingError extends Error {
  override readonly name = 'UnsupportedBodyEncodingError'
  readonly statusCode = 415
  readonly code = 'WEFT_UNSUPPORTED_ENCODING'
  readonly headers = { 'accept-encoding': 'identity' }

  constructor(coding: string) {
    super(`request bodies with Content-Encoding '${coding.slice(0, 32)}' are not accepted; send the body uncompressed`)
  }
}

/** The request body's Content-Type has no decoder. */
export class UnsupportedMediaTypeError extends Error {
  override readonly name = 'UnsupportedMediaTypeError'
  readonly statusCode = 415
  readonly code = 'WEFT_UNSUPPORTED_MEDIA_TYPE'

  constructor(contentType: string, expected: string) {
    super(
      contentType === ''
        ? `the request has no Content-Type; expected ${expected}`
        : `unsupported Content-Type "${contentType}"; expected ${expected}`,
    )
  }
}

/** The server is set up wrongly for this call (a programming error, not bad input): a 500. */
export class BindingSetupError extends Error {
  override readonly name = 'BindingSetupError'
  readonly statusCode = 500
  readonly code: string

  constructor(code: string, message: string) {
    super(message)
    this.code = code
  }
}
