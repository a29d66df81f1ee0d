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
