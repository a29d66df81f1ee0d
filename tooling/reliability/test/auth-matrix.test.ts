import { settingsFromEnv as settingsFromEnvA } from '@weft/api-a/src/config/settings.ts'
import { settingsFromEnv as settingsFromEnvB } from '@weft/api-b/src/config/settings.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerA, startApiA } from '../src/apps/api-a.js'
import { registerB, startApiB } from '../src/apps/api-b.js'
import { documentedCodes } from '../src/apps/client.js'
import { apiARows, apiBRows, commonRows, type MatrixApi, type MatrixRow, refusedSecrets } from '../src/auth/matrix.js'
import { checkApiEnvelope } from '../src/fuzz/checks.js'
import { recordFigures } from '../src/report/figures.js'

const envelope = checkApiEnvelope(documentedCodes)

/** One test per row: the status and code of the table, in the documented envelope. */
function matrix(
  name: 'api-a' | 'api-b',
  rows: MatrixRow[],
  start: () => Promise<MatrixApi & { close(): Promise<void> }>,
) {
  describe(`auth matrix of ${name}`, () => {
    let api: MatrixApi & { close(): Promise<void> }
    const results: { row: string; expected: string; got: string }[] = []

    beforeAll(async () => {
      api = await start()
    })
    afterAll(async () => {
      recordFigures(['auth', name], {
        rows: results.length,
        passed: results.filter((r) => r.expected === r.got).length,
        table: results,
      })
      await api?.close()
    })

    it.each(rows.map((r) => [r.row, r] as const))('%s', async (_row, row) => {
      const answer = await row.send(api)
      const expected = `${row.status} ${row.code ?? ''}`.trim()
      const got = `${answer.status} ${answer.status >= 400 ? String(answer.body.code) : ''}`.trim()
      results.push({ row: row.row, expected, got })
      expect({ status: answer.status, code: answer.status >= 400 ? answer.body.code : undefined }).toEqual({
        status: row.status,
        code: row.code,
      })
      const request = { method: 'GET' as const, url: '/', headers: {} }
      const body = JSON.stringify(answer.body)
      expect(envelope(request, { statusCode: answer.status, headers: answer.headers, body })).toEqual([])
      if (row.afterwards) expect(await row.afterwards.holds(api), row.afterwards.what).toBe(true)
    })
  })
}

let serial = 0

type Started = MatrixApi & { close(): Promise<void> }

/** API A on a fresh database with a password-check budget of `authRateLimit`. */
async function apiA(authRateLimit: number): Promise<Started> {
  const api = await startApiA({ authRateLimit })
  return {
    ...api,
    secret: api.settings.secret,
    userPath: '/api/users/',
    identifierField: 'email',
    freshUser: () => registerA(api.app, `matrix${++serial}`),
    withPasswordBudget: (max) => apiA(max),
  }
}

/** API B on a fresh database with a password-check budget of `loginRateLimitMax`. */
async function apiB(loginRateLimitMax: number): Promise<Started> {
  const api = await startApiB({ loginRateLimitMax })
  return {
    ...api,
    secret: api.settings.secret,
    userPath: '/api/user/',
    identifierField: 'username',
    freshUser: () => registerB(api.app, `matrix${++serial}`),
    withPasswordBudget: (max) => apiB(max),
  }
}

matrix('api-a', [...commonRows, ...apiARows], () => apiA(1_000_000))

matrix('api-b', [...commonRows, ...apiBRows], () => apiB(1_000_000))

describe('start-up refusals of known and guessable secrets', () => {
  it.each(refusedSecrets.map((r) => [r.row, r.secret] as const))(
    'both APIs refuse %s in production',
    (_row, secret) => {
      const env = { SECRET: secret, NODE_ENV: 'production' }
      expect(() => settingsFromEnvA(env)).toThrow(/SECRET/)
      expect(() => settingsFromEnvB(env)).toThrow(/SECRET/)
    },
  )
})
