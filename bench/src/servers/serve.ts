import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'

/**
 * The protocol between a benchmark server process and the orchestrator: one stdout line
 * `READY {"port":…, …}` once listening (extra fields carry e.g. a token), or `UNAVAILABLE reason`
 * when what the server needs has not landed yet. SIGTERM closes the app (and `onClose`) and exits,
 * so `--cpu-prof` can write its profile.
 */
export async function serve(
  app: FastifyInstance,
  extra: Record<string, unknown> = {},
  onClose?: () => Promise<void>,
): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  handOver(app.server)
  const { port } = app.server.address() as AddressInfo
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(() => onClose?.())
      .finally(() => process.exit(0))
  })
  process.stdout.write(`READY ${JSON.stringify({ port, ...extra })}\n`)
}

/** Reports that this server cannot run yet (a package or app it needs is not there) and exits. */
export function unavailable(reason: string): never {
  process.stdout.write(`UNAVAILABLE ${reason.replace(/\s+/g, ' ')}\n`)
  process.exit(0)
}

/**
 * `serve` for a server that is not Fastify (the Express and Hono peers): waits until `server`
 * listens, then speaks the same protocol; SIGTERM closes it (keep-alive connections included).
 */
export async function serveHttp(
  server: Server,
  extra: Record<string, unknown> = {},
  onClose?: () => Promise<void>,
): Promise<void> {
  if (!server.listening) await once(server, 'listening')
  handOver(server)
  const { port } = server.address() as AddressInfo
  process.once('SIGTERM', () => {
    server.closeAllConnections()
    server.close(() => {
      void (onClose?.() ?? Promise.resolve()).finally(() => process.exit(0))
    })
  })
  process.stdout.write(`READY ${JSON.stringify({ port, ...extra })}\n`)
}

/**
 * Leaves the listening server where bench/tools/count-server.mjs finds it when it imports a server
 * script: it hands requests to the server's `request` listener itself, without sockets, to count
 * each route's instructions and bytes.
 */
function handOver(server: Server): void {
  ;(globalThis as Record<symbol, unknown>)[Symbol.for('weft.bench.server')] = server
}
