import { describe, expect, it } from 'vitest'
import { classifyError } from '../src/http/error-handler.js'

type AnyError = Parameters<typeof classifyError>[0]
const asError = (fields: Record<string, unknown>, message = 'boom') =>
  Object.assign(new Error(message), fields) as unknown as AnyError

describe('classifyError', () => {
  it('answers an unexpected error with a bare 500 INTERNAL, no message, stack or SQL', () => {
    const error = asError({}, 'Failed query: select "password_hash" from "users" where id = $1 params: 1')
    const { statusCode, body } = classifyError(error)
    expect(statusCode).toBe(500)
    expect(body).toEqual({ status: 'error', code: 'INTERNAL', message: 'internal server error', data: null })
  })

  it('finds a unique violation under a wrapping error (drizzle keeps the driver error as cause)', () => {
    const driver = asError({ code: '23505', constraint_name: 'users_email_key' }, 'duplicate key value')
    const { statusCode, body } = classifyError(asError({ cause: driver }, 'Failed query: insert ...'))
    expect(statusCode).toBe(409)
    expect(body.errors).toEqual([{ field: 'email', rule: 'unique', message: 'is already taken' }])
    expect(JSON.stringify(body)).not.toContain('Failed query')
  })

  it.each([
    ['a terminated backend', { code: '57P01' }],
    ['a server starting up', { code: '57P03' }],
    ['a statement timeout', { code: '57014' }],
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['a connect timeout', { code: 'CONNECT_TIMEOUT' }],
  ])("answers %s (under drizzle's wrapper) with 503 UNAVAILABLE and Retry-After", (_name, fields) => {
    const { statusCode, body, headers } = classifyError(asError({ cause: asError(fields) }))
    expect(statusCode).toBe(503)
    expect(body.code).toBe('UNAVAILABLE')
    expect(headers).toEqual({ 'retry-after': '5' })
  })

  it('answers a value the database refuses (SQLSTATE class 22) with 400, not 500', () => {
    const driver = asError({ code: '22021' }, 'invalid byte sequence for encoding "UTF8": 0x00')
    const { statusCode, body } = classifyError(asError({ cause: driver }, 'Failed query: ...'))
    expect(statusCode).toBe(400)
    expect(body).toEqual({
      status: 'error',
      code: 'BAD_REQUEST',
      message: 'a value in the request cannot be stored',
      data: null,
    })
  })

  it('answers a handler timeout (a database that never answers) with 503 UNAVAILABLE', () => {
    const { statusCode, body, headers } = classifyError(asError({ code: 'FST_ERR_HANDLER_TIMEOUT', statusCode: 503 }))
    expect(statusCode).toBe(503)
    expect(body.code).toBe('UNAVAILABLE')
    expect(headers).toEqual({ 'retry-after': '5' })
  })

  it.each([
    ['WEFT_BIND_ERROR from the path', { code: 'WEFT_BIND_ERROR', statusCode: 400, source: 'uri' }, 'INVALID_ID'],
    ['WEFT_BIND_ERROR from the body', { code: 'WEFT_BIND_ERROR', statusCode: 400, source: 'body' }, 'BAD_REQUEST'],
    ['WEFT_BAD_REQUEST', { code: 'WEFT_BAD_REQUEST', statusCode: 400 }, 'BAD_REQUEST'],
    [
      'WEFT_VALIDATION_FAILED on the body',
      { code: 'WEFT_VALIDATION_FAILED', statusCode: 400, validationContext: 'body', validation: [] },
      'VALIDATION_FAILED',
    ],
    [
      'WEFT_VALIDATION_FAILED on the path',
      { code: 'WEFT_VALIDATION_FAILED', statusCode: 400, validationContext: 'uri', validation: [] },
      'INVALID_ID',
    ],
    ['a plugin 4xx', { statusCode: 418 }, 'BAD_REQUEST'],
  ])('maps %s to a 4xx envelope code', (_name, fields, code) => {
    const { body } = classifyError(asError(fields))
    expect(body.code).toBe(code)
  })

  it('lists each validation issue with field, rule and a message in words', () => {
    const { body } = classifyError(
      asError({
        statusCode: 400,
        validationContext: 'body',
        validation: [
          {
            instancePath: '/username',
            keyword: 'minLength',
            message: 'must NOT have fewer than 3 characters',
            params: { limit: 3 },
          },
          { instancePath: '', keyword: 'required', message: 'x', params: { missingProperty: 'email' } },
          { instancePath: '', keyword: 'additionalProperties', message: 'x', params: { additionalProperty: 'role' } },
        ],
      }),
    )
    expect(body.errors).toEqual([
      { field: 'username', rule: 'minLength', message: 'must be at least 3 characters' },
      { field: 'email', rule: 'required', message: 'is required' },
      { field: 'role', rule: 'additionalProperties', message: 'is not an accepted field' },
    ])
  })
})

describe('loggableError', () => {
  it('keeps the code and the names of a database error, never a message quoting values or parameters', async () => {
    const { loggableError } = await import('../src/db/errors.js')
    const driver = Object.assign(new Error('invalid input syntax for type integer: "victim@example.com"'), {
      code: '22P02',
      routine: 'pg_strtoint32_safe',
    })
    const failed = Object.assign(
      new Error('Failed query: update "users" set "password_hash" = $1\nparams: scrypt$1024$8$1$salt$key'),
      { cause: driver },
    )
    const logged = JSON.stringify(loggableError(failed))
    expect(logged).toContain('"code":"22P02"')
    expect(logged).toContain('pg_strtoint32_safe')
    expect(logged).not.toMatch(/scrypt|params|Failed query|victim/)
  })
})
