import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { networkInterfaces } from 'node:os'

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

/**
 * Waits until a server's collected output contains `text`. A log line written right after `listen` can reach
 * the parent's pipe after the server already answers requests, so a test that reads the output as soon as
 * the server is healthy must wait for the line, not assume it is there.
 */
export async function waitForOutput(
  server: ChildProcess,
  output: () => string,
  text: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!output().includes(text)) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}:\n${output()}`)
    if (Date.now() > deadline)
      throw new Error(`the server never printed "${text}" within ${timeoutMs / 1000} s:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * The first non-internal IPv4 address of this machine: how another machine on the network would reach a
 * server listening on `0.0.0.0`. Browsers treat it unlike `localhost` (not a secure context, no exemption
 * from `upgrade-insecure-requests`), which is the point of the tests that use it. Throws when the machine has
 * no such interface: those tests must fail, not pass by skipping.
 */
export function lanAddress(): string {
  const all = Object.values(networkInterfaces()).flatMap((entries) => entries ?? [])
  const address = all.find((entry) => entry.family === 'IPv4' && !entry.internal)?.address
  if (!address) {
    const seen = all.map((entry) => entry.address).join(', ') || 'none'
    throw new Error(`no non-internal IPv4 interface on this machine (addresses: ${seen}): cannot test over the network`)
  }
  return address
}
