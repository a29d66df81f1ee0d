import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

/**
 * Polls `GET <base>/api/health` until it answers 2xx. Fails early, with the server's output, when the
 * process exits, and after `timeoutMs` otherwise.
 */
export async function waitForHealth(
  base: string,
  server: ChildProcess,
  output: () => string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}:\n${output()}`)
    const ok = await fetch(`${base}/api/health`).then(
      (res) => res.ok,
      () => false,
    )
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`server did not become healthy within ${timeoutMs / 1000} s:\n${output()}`)
}
