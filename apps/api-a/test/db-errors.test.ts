import { describe, expect, it } from 'vitest'
import { databaseUnavailable, foreignKeyViolation, uniqueViolation } from '../src/db/errors.js'
import { toApiError } from '../src/http/error-handler.js'

/** Drizzle wraps driver errors; the classification must look through `cause`. */
const wrapped = (cause: object) => Object.assign(new Error('Failed query: insert into ...'), { cause })

describe('databaseUnavailable', () => {
  it.each([
    ['a refused connection', { code: 'ECONNREFUSED' }],
    ['a connect timeout of postgres.js', { code: 'CONNECT_TIMEOUT' }],
    ['a closed connection of postgres.js', { code: 'CONNECTION_CLOSED' }],
    ['admin_shutdown (pg_terminate_backend)', { code: '57P01' }],
    ['cannot_connect_now (server starting)', { code: '57P03' }],
    ['a statement timeout', { code: '57014' }],
    ['a connection exception class 08', { code: '08006' }],
    ['a closed PGlite', new Error('PGlite is closed')],
  ])('is true for %s, also wrapped by drizzle', (_name, error) => {
    expect(databaseUnavailable(error)).toBe(true)
    expect(databaseUnavailable(wrapped(error))).toBe(true)
  })

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a syntax error', { code: '42601' }],
    ['a plain error', new Error('boom')],
    ['nothing', undefined],
  ])('is false for %s', (_name, error) => {
    expect(databaseUnavailable(wrapped(error ?? {}))).toBe(false)
  })
})

describe('uniqueViolation', () => {
  it('names the constraint of a wrapped 23505 (postgres.js and PGlite spellings)', () => {
    expect(uniqueViolation(wrapped({ code: '23505', constraint_name: 'users_email_key' }))).toBe('users_email_key')
    expect(uniqueViolation(wrapped({ code: '23505', constraint: 'users_username_key' }))).toBe('users_username_key')
  })

  it('is undefined for other errors', () => {
    expect(uniqueViolation(wrapped({ code: '23503' }))).toBeUndefined()
  })
})

describe('foreignKeyViolation', () => {
  it('is true for a wrapped 23503 only', () => {
    expect(foreignKeyViolation(wrapped({ code: '23503' }))).toBe(true)
    expect(foreignKeyViolation(wrapped({ code: '23505' }))).toBe(false)
  })
})

describe('toApiError on database errors', () => {
  it.each([
    ['a unique violation of the email index', { code: '23505', constraint_name: 'users_email_key' }, 409, 'CONFLICT'],
    ['a foreign-key violation (owner deleted meanwhile)', { code: '23503' }, 409, 'CONFLICT'],
    ['a terminated connection', { code: '57P01' }, 503, 'UNAVAILABLE'],
    ['a syntax error', { code: '42601', message: 'syntax error at or near "x"' }, 500, 'INTERNAL'],
  ])('maps %s to %i %s without the driver text', (_name, cause, status, code) => {
    const error = toApiError(wrapped(cause))
    expect({ status: error.statusCode, code: error.code }).toEqual({ status, code })
    expect(error.message).not.toMatch(/syntax|Failed query/)
  })
})

describe('toApiError on values the database cannot store', () => {
  it.each([
    ['a NUL byte in text (22021)', '22021'],
    ['an untranslatable character (22P05)', '22P05'],
    ['a value out of range (22003)', '22003'],
  ])('maps %s to 400 BAD_REQUEST', (_name, code) => {
    const error = toApiError(wrapped({ code, message: 'invalid byte sequence for encoding "UTF8": 0x00' }))
    expect({ status: error.statusCode, code: error.code }).toEqual({ status: 400, code: 'BAD_REQUEST' })
    expect(error.message).not.toMatch(/UTF8|0x00/)
  })
})

describe('loggableError', () => {
  it('keeps the code and the names of a database error, never the message with the parameters', async () => {
    const { loggableError } = await import('../src/db/errors.js')
    const failed = Object.assign(
      new Error('Failed query: update "users" set "password_hash" = $1\nparams: scrypt$1024$8$1$salt$key'),
      { cause: { code: '23514', severity: 'ERROR', routine: 'ExecConstraints', table_name: 'users', message: 'x' } },
    )
    const logged = loggableError(failed)
    expect(logged).toMatchObject({ code: '23514', routine: 'ExecConstraints', table: 'users' })
    expect(JSON.stringify(logged)).not.toMatch(/scrypt|params|Failed query/)
  })
})
