import { registerB, startApiB } from '../../apps/api-b.js'
import { documentedCodes } from '../../apps/client.js'
import { checkApiEnvelope } from '../checks.js'
import type { FuzzTarget } from '../target.js'

/** Ids below this belong to users nobody holds a token for (403 paths). */
const othersUpTo = 60

/**
 * API B on PGlite as a fuzz target: users seeded, two logged-in users whose ids lie above the ids the
 * generators favour, login rate limit raised so login is fuzzed past the limiter.
 */
export async function apiBTarget(): Promise<FuzzTarget> {
  const api = await startApiB({ loginRateLimitMax: 1_000_000 })
  const { app } = api
  for (let i = 1; i < othersUpTo; i++) await registerB(app, `user${i}`)
  const holders = [await registerB(app, 'fuzzer1'), await registerB(app, 'fuzzer2')]
  const updatable = ['username', 'email', 'password', 'current_password', 'id', 'role', 'token_version', 'created_at']
  return {
    name: 'api-b',
    app,
    routes: [
      { method: 'GET', path: '/api/health' },
      { method: 'POST', path: '/api/user', fields: ['username', 'password', 'email'] },
      { method: 'POST', path: '/api/user/', fields: ['username', 'password', 'email'] },
      { method: 'POST', path: '/api/auth/login', fields: ['username', 'password'] },
      { method: 'GET', path: '/api/user/:id', auth: true },
      { method: 'GET', path: '/api/user/:id/', auth: true },
      { method: 'PATCH', path: '/api/user/:id', auth: true, fields: updatable },
      { method: 'DELETE', path: '/api/user/:id', auth: true },
      { method: 'GET', path: '/api/nowhere' },
    ],
    authorizations: holders.map((h) => `Bearer ${h.accessToken}`),
    check: checkApiEnvelope(documentedCodes),
    close: () => api.close(),
  }
}
