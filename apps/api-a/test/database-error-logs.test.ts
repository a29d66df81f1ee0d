import { Writable } from 'node:stream'
import { testDatabaseKinds } from '@weft/tooling/test-db'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, newUser, signUp, startApp, type TestApp } from './support.js'

/**
 * Forces database errors on writes that carry secrets (a new password hash, a session's refresh-token hash)
 * and reads the captured logs: the driver code is there, no parameter, hash or token is.
 */
describe.each(testDatabaseKinds())('logs of database errors on %s', (kind) => {
  let t: TestApp
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk))
      callback()
    },
  })
  beforeAll(async () => {
    t = await startApp(kind, 'errlogs', {}, { level: 'trace', stream })
  })
  afterAll(() => t?.close())

  /** Makes every new or updated row of `table` fail with SQLSTATE 23514 (existing rows stay valid). */
  const breakWrites = (table: string) =>
    t.database.db.execute(sql.raw(`alter table ${table} add constraint forced_failure check (false) not valid`))
  const restoreWrites = (table: string) =>
    t.database.db.execute(sql.raw(`alter table ${table} drop constraint forced_failure`))

  it('hold the code of a failed password change, never the hash, the token or the email', async () => {
    const account = await signUp(t.app)
    await breakWrites('users')
    try {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/${account.id}`,
        headers: bearer(account.access),
        payload: { password: 'a brand new password', current_password: account.password, email: `z${account.email}` },
      })
      expect(res.statusCode).toBe(500)
      expect(res.json()).toMatchObject({ code: 'INTERNAL', message: 'internal server error' })
    } finally {
      await restoreWrites('users')
    }
    const log = lines.join('')
    expect(log).toContain('"code":"23514"')
    for (const secret of ['scrypt$', account.access, account.refresh, account.password, account.email, 'eyJ']) {
      expect(log).not.toContain(secret)
    }
    expect(log).not.toMatch(/params|Failed query|update "users"/)
  })

  it('hold the code of a failed login session, never the refresh-token hash or the user', async () => {
    const user = newUser('errlog')
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: user })).statusCode).toBe(201)
    await breakWrites('refresh_tokens')
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: user.password },
      })
      expect(res.statusCode).toBe(500)
    } finally {
      await restoreWrites('refresh_tokens')
    }
    const log = lines.join('')
    expect(log).toContain('"code":"23514"')
    expect(log).not.toMatch(/params|Failed query|insert into/)
    for (const secret of [user.password, user.email, 'scrypt$', 'eyJ']) expect(log).not.toContain(secret)
  })
})
