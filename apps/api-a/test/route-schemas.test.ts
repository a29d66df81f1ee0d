import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, newUser, signUp, startApp, type TestApp } from './support.js'

/** The codes an app logged for its requests (`request.log.info({ code })` in the error handler). */
function codeLog() {
  const lines: string[] = []
  const stream = { write: (line: string) => lines.push(line) }
  const codes = () =>
    lines.map((line) => JSON.parse(line) as { code?: string }).flatMap((entry) => (entry.code ? [entry.code] : []))
  return { logger: { level: 'info', stream }, codes }
}

describe('route schemas: one failure, one code', () => {
  let t: TestApp
  let account: Account
  const log = codeLog()
  beforeAll(async () => {
    t = await startApp('pglite', 'route_schemas', {}, log.logger)
    account = await signUp(t.app)
  })
  afterAll(() => t?.close())

  it('answers a body that breaks its route schema with the VALIDATION_FAILED envelope alone', async () => {
    const before = log.codes().length
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newUser(), username: 'ab' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'VALIDATION_FAILED',
      message: 'username must be at least 3 characters',
      data: null,
      errors: [{ field: 'username', rule: 'minLength', message: 'must be at least 3 characters' }],
    })
    expect(log.codes().slice(before)).toEqual(['VALIDATION_FAILED'])
  })

  it('names a field of the wrong type and an unknown field the same way', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: bearer(account.access),
      payload: { title: 'Lamp', amount: '3', colour: 'red' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'error', code: 'VALIDATION_FAILED', data: null })
    expect(res.body).not.toContain('FST_ERR')
  })

  it('answers a path id that breaks its route schema with INVALID_ID alone', async () => {
    const before = log.codes().length
    const res = await t.app.inject({ method: 'GET', url: '/api/products/0' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'INVALID_ID',
      message: 'id must be a positive integer',
      data: null,
    })
    expect(log.codes().slice(before)).toEqual(['INVALID_ID'])
  })
})

describe('route schemas: Fastify validates every one', () => {
  it('has no route or app-wide validator that lets a schema through unchecked', () => {
    const src = fileURLToPath(new URL('../src', import.meta.url))
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))
    const overriding = files.filter((file) =>
      /validatorCompiler|setValidatorCompiler/.test(readFileSync(join(src, file), 'utf8')),
    )
    expect(overriding).toEqual([])
  })
})
