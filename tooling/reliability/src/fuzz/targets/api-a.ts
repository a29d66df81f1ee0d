import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { createProductA, registerA, startApiA } from '../../apps/api-a.js'
import { documentedCodes, suiteSecret } from '../../apps/client.js'
import { cursorSigner } from '../inputs/signed-cursor.js'
import { captureLogs } from '../logs.js'
import { Session } from '../session.js'
import type { FuzzTarget } from '../target.js'
import { fromDocument } from './document-routes.js'

/** Ids below this belong to users and products nobody holds a token for (403/404 paths). */
const othersUpTo = 60

/**
 * API A on PGlite as a fuzz target: a few dozen users and products seeded, two logged-in users whose ids
 * lie above the ids the generators favour (so fuzzed DELETEs do not log the fuzzer out), rate limits
 * raised so register and login are fuzzed past the limiter. Routes, schemas and the response oracle come
 * from the app's own OpenAPI document; every log line is captured for the leak check.
 */
export async function apiATarget(): Promise<FuzzTarget> {
  const logs = captureLogs()
  const api = await startApiA({ authRateLimit: 1_000_000 }, logs.logger)
  const { app } = api
  const owner = await registerA(app, 'owner')
  for (let i = 0; i < 30; i++) await createProductA(app, owner.accessToken, `product ${i}`, i * 10)
  for (let i = 2; i < othersUpTo; i++) await registerA(app, `user${i}`)
  const holders = [await registerA(app, 'fuzzer1'), await registerA(app, 'fuzzer2')]
  const first = await app.inject({ method: 'GET', url: '/api/products?limit=3' })
  const meta = (first.json() as { meta: { pagination: { next_cursor: string } } }).meta
  const cursorKey = createHmac('sha256', suiteSecret).update('weft-api-a cursor').digest()
  const documented = fromDocument(app, documentedCodes)
  const session = new Session(async (i) => {
    const user = await registerA(app, `session${i}`)
    return {
      id: user.id,
      authorization: `Bearer ${user.accessToken}`,
      secrets: [user.password, user.accessToken, user.refreshToken],
    }
  })
  for (const user of [owner, ...holders]) session.secrets.push(user.password, user.accessToken, user.refreshToken)
  logs.take()
  return {
    name: 'api-a',
    app,
    operations: documented.operations,
    routes: [...documented.routes, { method: 'GET', path: '/api/nowhere' }],
    authorizations: holders.map((h) => `Bearer ${h.accessToken}`),
    cursor: {
      route: { method: 'GET', path: '/api/products', operation: 'GET /api/products' },
      format: {
        samples: [meta.pagination.next_cursor].filter(Boolean),
        sign: cursorSigner(cursorKey, [{ field: 'id', order: 'asc' }]),
      },
      extraQuery: fc.constantFrom(
        '',
        'limit=5',
        'limit=0',
        'limit=101',
        'sort=-amount',
        'sort=id',
        'page=2',
        'offset=3',
      ),
    },
    check: documented.check,
    session,
    logs,
    close: () => api.close(),
  }
}
