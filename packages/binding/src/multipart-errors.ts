/** A multipart text field went over `multipartLimits.fieldSize`. */
export class FieldTooLargeError extends Error {
  override readonly name = 'FieldTooLargeError'
  readonly statusCode = 413
  readonly code = 'WEFT_FIELD_TOO_LARGE'
  /** Fastify sends these with the error: the rest of the body is never read, so the connection ends. */
  readonly headers = { connection: 'close' }

  constructor(field: string) {
    super(`multipart field "${field}" is larger than the field size limit`)
  }
}

/** The codes of {@link MultipartLimitError}, one per limit (the codes `@fastify/multipart` uses). */
export type MultipartLimitCode = 'FST_REQ_FILE_TOO_LARGE' | 'FST_FILES_LIMIT' | 'FST_FIELDS_LIMIT' | 'FST_PARTS_LIMIT'

const limitMessages: Record<MultipartLimitCode, string> = {
  FST_REQ_FILE_TOO_LARGE: 'request file too large',
  FST_FILES_LIMIT: 'reach files limit',
  FST_FIELDS_LIMIT: 'reach fields limit',
  FST_PARTS_LIMIT: 'reach parts limit',
}

/**
 * A multipart body went over one of `multipartLimits` (file size, files, fields, parts): a 413.
 * The codes and messages are those of `@fastify/multipart`, which earlier versions used.
 */
export class MultipartLimitError extends Error {
  override readonly name = 'MultipartLimitError'
  readonly statusCode = 413
  readonly code: MultipartLimitCode
  /** Fastify sends these with the error: the rest of the body is never read, so the connection ends. */
  readonly headers = { connection: 'close' }

  constructor(code: MultipartLimitCode) {
    super(limitMessages[code])
    this.code = code
  }
}

/** A multipart body that cannot be parsed (no boundary, cut short, malformed part headers): a 400. */
export class MalformedMultipartError extends Error {
  override readonly name = 'MalformedMultipartError'
  readonly statusCode = 400
  readonly code = 'WEFT_MULTIPART_MALFORMED'

  constructor(reason: string) {
    super(`malformed multipart body: ${reason}`)
  }
}

/**
 * A multipart body went over the route's `bodyLimit` (the whole stream counts): a 413 with
 * Fastify's own code and message for bodies that are too large.
 */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError'
  readonly statusCode = 413
  readonly code = 'FST_ERR_CTP_BODY_TOO_LARGE'
  /** Fastify sends these with the error: the rest of the body is never read, so the connection ends. */
  readonly headers = { connection: 'close' }

  constructor() {
    super('Request body is too large')
  }
}
