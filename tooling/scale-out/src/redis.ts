import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { redisServer } from '@weft/tooling/system-programs'
import { freePort } from '@weft/tooling/test-server'
import { type Child, spawnChild, waitFor } from './process.js'

/**
 * A Redis server of the test's own (Debian's `redis-server`) on a free loopback port, no persistence.
 * Always our own, never the machine's: the test stops it to prove the replicas survive a Redis outage.
 */
export interface TestRedis {
  readonly url: string
  stop(): Promise<void>
  start(): Promise<void>
  destroy(): Promise<void>
}

/** True once something answers PING on the port. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.setTimeout(1_000, () => socket.destroy())
    socket.once('error', () => resolve(false))
    socket.once('close', () => resolve(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => {
      resolve(data.toString().startsWith('+PONG'))
      socket.destroy()
    })
  })
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'weft-scale-redis-'))
  let child: Child | undefined
  const start = async () => {
    child = spawnChild(
      'redis',
      redisServer().path ?? 'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { env: { PATH: process.env.PATH ?? '' } },
    )
    await waitFor(
      () => pong(port),
      10_000,
      () => child?.output() ?? '',
    )
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await child?.stop(5_000)
    },
    start,
    async destroy() {
      await child?.stop(5_000)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
