import { watchContract } from '@weft/tooling/openapi-contract'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { type DatabaseHandle, openDatabase } from '../src/db/client.js'
import { bearer, newUser, registeredUser, testSettings } from './support.js'

describe('route schemas: one failure, one code', () => {
  let database: DatabaseHandle
  let app: FastifyInstance
  const lines: { code?: string }[] = []
  /** The error codes the app logged since `from` (one line per answered error). */
  const codesSince = (from: number) => lines.slice(from).flatMap((line) => (line.code ? [line.code] : []))
  let contract: ReturnType<typeof watchContract>
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' })
    await database.migrate()
    const stream = { write: (line: string) => void lines.push(JSON.parse(line)) }
    app = await buildApp({ database, settings: testSettings(), logger: { level: 'info', stream } })
    contract = watchContract(app)
  })
  afterAll(async () => {
    await app?.close()
    await database?.close()
    expect(contract.violations).toEqual([])
  })

  it('answers a body that breaks its route schema with the VALIDATION_FAILED envelope alone', async () => {
    const from = lines.length
    const res = await app.inject({ method: 'POST', url: '/api/user', payload: { ...newUser(), username: 'ab' } })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'VALIDATION_FAILED',
      message: 'username must be at least 3 characters',
      data: null,
      errors: [{ field: 'username', rule: 'minLength', message: 'must be at least 3 characters' }],
    })
    expect(codesSince(from)).toEqual(['VALIDATION_FAILED'])
  })

  it('names an unknown field and a field of the wrong type, never a framework code', async () => {
    const me = await registeredUser(app)
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/user/${me.id}`,
      headers: bearer(me.token),
      payload: { username: 3, role: 'admin' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: 'error', code: 'VALIDATION_FAILED', data: null })
    expect(res.body).not.toContain('FST_ERR')
  })

  it('answers a path id that breaks its route schema with INVALID_ID alone', async () => {
    const me = await registeredUser(app)
    const from = lines.length
    const res = await app.inject({ method: 'GET', url: '/api/user/0', headers: bearer(me.token) })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      status: 'error',
      code: 'INVALID_ID',
      message: 'id must be a positive integer',
      data: null,
    })
    expect(codesSince(from)).toEqual(['INVALID_ID'])
  })
})
