import { registerB, startApiB } from '../../apps/api-b.js'
import { documentedCodes } from '../../apps/client.js'
import { captureLogs } from '../logs.js'
import { Session } from '../session.js'
import type { FuzzTarget } from '../target.js'
import { fromDocument } from './document-routes.js'

/** Ids below this belong to users nobody holds a token for (403 paths). */
const othersUpTo = 60

/**
 * API B on PGlite as a fuzz target: users seeded, two logged-in users whose ids lie above the ids the
 * generators favour, login rate limit raised so login is fuzzed past the limiter. Routes, schemas and the
 * response oracle come from the app's own OpenAPI document; every log line is captured for the leak check.
 */
export async function apiBTarget(): Promise<FuzzTarget> {
  const logs = captureLogs()
  const api = await startApiB({ loginRateLimitMax: 1_000_000 }, logs.logger)
  const { app } = api
  for (let i = 1; i < othersUpTo; i++) await registerB(app, `user${i}`)
  const holders = [await registerB(app, 'fuzzer1'), await registerB(app, 'fuzzer2')]
  const documented = fromDocument(app, documentedCodes)
  const session = new Session(async (i) => {
    const user = await registerB(app, `session${i}`)
    return { id: user.id, authorization: `Bearer ${user.accessToken}`, secrets: [user.password, user.accessToken] }
  })
  for (const user of holders) session.secrets.push(user.password, user.accessToken)
  logs.take()
  const register = documented.routes.find((r) => r.operation === 'POST /api/user')
  return {
    name: 'api-b',
    app,
    operations: documented.operations,
    routes: [
      ...documented.routes,
      // The same routes spelled with a trailing slash, and a route that does not exist.
      ...(register ? [{ ...register, path: '/api/user/' }] : []),
      { method: 'GET', path: '/api/user/:id/', auth: true, operation: 'GET /api/user/{id}' },
      { method: 'GET', path: '/api/nowhere' },
    ],
    authorizations: holders.map((h) => `Bearer ${h.accessToken}`),
    check: documented.check,
    session,
    logs,
    close: () => api.close(),
  }
}
