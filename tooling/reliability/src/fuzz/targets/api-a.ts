import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { createProductA, registerA, startApiA } from '../../apps/api-a.js'
import { documentedCodes, suiteSecret } from '../../apps/client.js'
import { checkApiEnvelope } from '../checks.js'
import { cursorSigner } from '../inputs/signed-cursor.js'
import type { FuzzTarget } from '../target.js'

/** Ids below this belong to users and products nobody holds a token for (403/404 paths). */
const othersUpTo = 60

/**
 * API A on PGlite as a fuzz target: a few dozen users and products seeded, two logged-in users whose ids
 * lie above the ids the generators favour (so fuzzed DELETEs do not log the fuzzer out), rate limits
 * raised so register and login are fuzzed past the limiter.
 */
export async function apiATarget(): Promise<FuzzTarget> {
  const api = await startApiA({ authRateLimit: 1_000_000 })
  const { app } = api
  const owner = await registerA(app, 'owner')
  for (let i = 0; i < 30; i++) await createProductA(app, owner.accessToken, `product ${i}`, i * 10)
  for (let i = 2; i < othersUpTo; i++) await registerA(app, `user${i}`)
  const holders = [await registerA(app, 'fuzzer1'), await registerA(app, 'fuzzer2')]
  const first = await app.inject({ method: 'GET', url: '/api/products?limit=3' })
  const meta = (first.json() as { meta: { pagination: { next_cursor: string } } }).meta
  const cursorKey = createHmac('sha256', suiteSecret).update('weft-api-a cursor').digest()
  return {
    name: 'api-a',
    app,
    routes: [
      { method: 'GET', path: '/api/health' },
      { method: 'POST', path: '/api/auth/register', fields: ['username', 'password', 'email'] },
      { method: 'POST', path: '/api/auth/login', fields: ['email', 'password'] },
      { method: 'POST', path: '/api/auth/refresh-token', auth: true, fields: ['refresh_token'] },
      { method: 'GET', path: '/api/users/:id', auth: true },
      {
        method: 'PATCH',
        path: '/api/users/:id',
        auth: true,
        fields: ['username', 'email', 'password', 'current_password', 'id', 'role', 'created_at'],
      },
      { method: 'DELETE', path: '/api/users/:id', auth: true },
      { method: 'GET', path: '/api/products', fields: ['page', 'limit', 'offset', 'sort', 'cursor'] },
      { method: 'GET', path: '/api/products/:id' },
      {
        method: 'POST',
        path: '/api/products',
        auth: true,
        fields: ['title', 'description', 'amount', 'owner_id', 'id'],
      },
      { method: 'DELETE', path: '/api/products/:id', auth: true },
      { method: 'GET', path: '/api/nowhere' },
    ],
    authorizations: holders.map((h) => `Bearer ${h.accessToken}`),
    cursor: {
      route: { method: 'GET', path: '/api/products' },
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
    check: checkApiEnvelope(documentedCodes),
    close: () => api.close(),
  }
}
