import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort } from '@weft/tooling/test-server'
import { type Child, spawnChild, waitFor } from './process.js'

const require = createRequire(import.meta.url)
const apiDir = dirname(require.resolve('@weft/api-a/package.json'))

/** One API A process started from its build, as the image starts it (`node dist/server.js`). */
export interface Replica {
  readonly name: string
  readonly address: string
  process: Child
  /** SIGTERM and wait for the exit; resolves with the exit code. */
  stop(): Promise<number | string>
  /** Starts the process again on the same port and waits until it is healthy. */
  start(): Promise<void>
  /** Stops the process and removes its working directory. */
  destroy(): Promise<void>
}

export async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  const port = await freePort()
  const cwd = mkdtempSync(join(tmpdir(), `weft-scale-${name}-`))
  const launch = async () => {
    const child = spawnChild(name, process.execPath, [join(apiDir, 'dist', 'server.js')], {
      // An empty working directory: no developer `.env` leaks in.
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
    })
    await waitFor(
      async () => {
        if (!child.running()) throw new Error(`${name} exited: ${child.output()}`)
        return (await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200
      },
      60_000,
      () => child.output(),
    )
    return child
  }
  const replica: Replica = {
    name,
    address: `127.0.0.1:${port}`,
    process: await launch(),
    stop: () => replica.process.stop(30_000),
    async start() {
      replica.process = await launch()
    },
    async destroy() {
      await replica.process.stop(10_000)
      rmSync(cwd, { recursive: true, force: true })
    },
  }
  return replica
}
