/** A multipart text field went over `multipartLimits.fieldSize`. */
export class FieldTooLargeError extends Error {
  override readonly name = 'FieldTooLargeError'
  readonly statusCode = 413
  readonly code = 'WEFT_FIELD_TOO_LARGE'

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
