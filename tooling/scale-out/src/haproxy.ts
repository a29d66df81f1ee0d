import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { haproxy } from '@weft/tooling/system-programs'
import { freePort } from '@weft/tooling/test-server'
import { type Child, spawnChild, waitFor } from './process.js'

/** The configuration compose uses too: the test proves the file that ships. */
export const haproxyConfig = new URL('../../../docker/haproxy/haproxy.cfg', import.meta.url).pathname

export interface TestHaproxy {
  readonly url: string
  /** Each replica's state as HAProxy's health checks see it (`UP`, `DOWN`, ...), by server name. */
  states(): Promise<Record<string, string>>
  destroy(): Promise<void>
}

/** One command on HAProxy's runtime API (its stats socket). */
function runtimeCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket)
    let answer = ''
    client.once('error', reject)
    client.on('data', (chunk) => (answer += chunk.toString()))
    client.once('end', () => resolve(answer))
    client.write(`${command}\n`)
  })
}

/** Starts Debian's `haproxy` in the foreground with `docker/haproxy/haproxy.cfg` in front of `replicas`. */
export async function startHaproxy(replicas: string[]): Promise<TestHaproxy> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'weft-scale-haproxy-'))
  const socket = join(dir, 'admin.sock')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    LISTEN: `127.0.0.1:${port}`,
    HAPROXY_SOCKET: socket,
  }
  replicas.forEach((address, i) => {
    env[`REPLICA_${i + 1}`] = address
  })
  const child: Child = spawnChild('haproxy', haproxy().path ?? 'haproxy', ['-db', '-f', haproxyConfig], { env })
  const states = async () => {
    const csv = await runtimeCommand(socket, 'show stat')
    const result: Record<string, string> = {}
    for (const line of csv.split('\n')) {
      const [proxy, server, ...rest] = line.split(',')
      if (proxy === 'api_a' && server && server !== 'BACKEND') result[server] = rest[15] ?? ''
    }
    return result
  }
  await waitFor(
    async () => Object.values(await states()).filter((s) => s === 'UP').length === replicas.length,
    30_000,
    () => child.output(),
  )
  return {
    url: `http://127.0.0.1:${port}`,
    states,
    async destroy() {
      await child.stop(5_000)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
