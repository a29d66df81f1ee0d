import fc from 'fast-check'
import { buildTestApp, testAppCursorSecret } from '../../test-app/app.js'
import { checkFastifyError } from '../checks.js'
import { cursorSigner } from '../inputs/signed-cursor.js'
import { captureLogs } from '../logs.js'
import type { FuzzTarget } from '../target.js'
import { testAppOperations } from './test-app-operations.js'

/** The headers `GET /inspect` reads through @weft/context. */
const inspectHeaders = [
  'accept',
  'accept-language',
  'accept-encoding',
  'accept-charset',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  'host',
  'cookie',
  'if-none-match',
  'if-modified-since',
  'cache-control',
  'x-requested-with',
]

/**
 * The test app (all three packages, Fastify's own error handler) as a fuzz target; the schema families
 * generate from the schemas its routes bind, and its log lines are searched for secrets too.
 */
export async function testAppTarget(): Promise<FuzzTarget> {
  const logs = captureLogs()
  const app = await buildTestApp(logs.logger)
  await app.ready()
  const first = await app.inject({ method: 'GET', url: '/list?limit=3' })
  const samples = [(first.json() as { page: { next_cursor: string } }).page.next_cursor].filter(Boolean)
  return {
    name: 'test-app',
    app,
    routes: [
      { method: 'GET', path: '/inspect', fields: ['q', 'n', 'f', 'b'], headers: inspectHeaders },
      { method: 'GET', path: '/range', headers: ['range'] },
      { method: 'GET', path: '/negotiate', headers: ['accept'] },
      { method: 'GET', path: '/items/:id' },
      { method: 'GET', path: '/items/:id/bound' },
      { method: 'GET', path: '/search', fields: ['q', 'tags', 'id', 'page', 'exact', 'price'] },
      { method: 'GET', path: '/caller', headers: ['x-token', 'user-agent', 'cookie'] },
      { method: 'GET', path: '/list', fields: ['page', 'limit', 'offset', 'sort', 'cursor'] },
      { method: 'POST', path: '/items', fields: ['name', 'price', 'tags', 'stock', 'meta', 'color', 'size'] },
      { method: 'POST', path: '/upload', fields: ['file', 'name', 'files'] },
    ],
    operations: testAppOperations,
    authorizations: [],
    cursor: {
      route: { method: 'GET', path: '/list' },
      format: { samples, sign: cursorSigner(testAppCursorSecret, [{ field: 'id', order: 'asc' }]) },
      extraQuery: fc.constantFrom('', 'limit=5', 'limit=0', 'limit=1000', 'sort=-name', 'sort=id', 'page=2'),
    },
    check: checkFastifyError,
    logs,
    close: () => app.close(),
  }
}
