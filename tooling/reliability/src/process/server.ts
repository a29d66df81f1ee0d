import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { freePort } from '@weft/tooling/test-server'
import { rssOf, sleep } from './exec.js'

/** The two example APIs, by workspace name. */
export type ApiName = 'api-a' | 'api-b'

/**
 * One API server running in its own process, started exactly as `pnpm start` starts it
 * (`node --conditions=@weft/source --import tsx src/server.ts`), so load and faults hit the real entry
 * point: settings from the environment, migrations, listen, graceful shutdown.
 */
export interface ServerProcess {
  readonly name: ApiName
  readonly url: string
  readonly pid: number
  /** Everything the process wrote to stdout and stderr so far (for failure messages). */
  output(): string
  /** Current resident set size in bytes. */
  rss(): Promise<number>
  /**
   * What the process holds after V8's most thorough garbage collection (bytes). Only for a server
   * started with `memoryProbe: true`.
   */
  heldMemory(): Promise<HeldMemory>
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  readonly exited: Promise<number | string>
  /** Sends a signal. */
  kill(signal: NodeJS.Signals): void
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. Safe to call twice. */
  stop(graceMs?: number): Promise<number | string>
}

const require = createRequire(import.meta.url)

/** The folder of an app of the workspace (resolved through this package's devDependencies). */
export function appDir(name: ApiName): string {
  return dirname(require.resolve(`@weft/${name}/package.json`))
}

/** tsx's `--import` entry, as a URL: the server runs from a temp folder where a bare `tsx` would not resolve. */
const tsxLoader = () => pathToFileURL(require.resolve('tsx')).href

/** A server's memory right after V8's most thorough garbage collection, from `process.memoryUsage()` (bytes). */
export interface HeldMemory {
  rss: number
  /** The JavaScript heap in use. */
  heapUsed: number
  /** Memory of C++ objects bound to JavaScript ones, Buffers and ArrayBuffers included. */
  external: number
  arrayBuffers: number
}

/** The preload that answers `heldMemory()` (see the file), as a URL for `--import`. */
export const heldMemoryProbe = new URL('./held-memory-probe.mjs', import.meta.url).href

export interface StartOptions {
  /** Environment of the server on top of a minimal one (PATH, HOME); `PORT` and `HOST` are set here. */
  env: Record<string, string>
  /** How long the server may take to answer `GET /api/health` (default 60 s). */
  readyTimeoutMs?: number
  /**
   * Start the server with an IPC channel and a small preload, so `heldMemory()` can ask it for its
   * memory after a thorough garbage collection. The app itself is unchanged.
   */
  memoryProbe?: boolean
}

/**
 * Starts `apps/<name>/src/server.ts` on a free port, from an empty temp folder as working directory so no
 * developer `.env` of the app folder leaks in, and waits until `/api/health` answers.
 */
export async function startServer(name: ApiName, options: StartOptions): Promise<ServerProcess> {
  const port = await freePort()
  const cwd = mkdtempSync(join(tmpdir(), `weft-reliability-${name}-`))
  const entry = join(appDir(name), 'src', 'server.ts')
  const probe = options.memoryProbe ? ['--import', heldMemoryProbe] : []
  const args = ['--conditions=@weft/source', ...probe, '--import', tsxLoader(), entry]
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? cwd,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...options.env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: options.memoryProbe ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      rmSync(cwd, { recursive: true, force: true })
      resolve(code ?? signal ?? 'unknown')
    })
  })
  let ended = false
  void exited.then(() => {
    ended = true
  })
  const url = `http://127.0.0.1:${port}`
  const server: ServerProcess = {
    name,
    url,
    pid: child.pid ?? -1,
    output: () => log,
    rss: async () => {
      if (ended) throw new Error(`${name} exited (${await exited}) during the run:\n${log}`)
      return rssOf(child.pid ?? -1)
    },
    heldMemory: async () => {
      if (!options.memoryProbe) throw new Error(`${name} was started without memoryProbe`)
      if (ended) throw new Error(`${name} exited (${await exited}) during the run:\n${log}`)
      return askHeldMemory(child)
    },
    exited,
    kill: (signal) => {
      if (!ended) child.kill(signal)
    },
    async stop(graceMs = 15_000) {
      if (!ended) child.kill('SIGTERM')
      const timer = setTimeout(() => {
        if (!ended) child.kill('SIGKILL')
      }, graceMs)
      const how = await exited
      clearTimeout(timer)
      return how
    },
  }
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000)
  for (;;) {
    if (ended) throw new Error(`${name} exited before it was ready:\n${log}`)
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })
      await response.arrayBuffer()
      if (response.status < 500) return server
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop(1_000)
      throw new Error(`${name} was not ready within ${options.readyTimeoutMs ?? 60_000} ms:\n${log}`)
    }
    await sleep(200)
  }
}

/** Sends the probe its question and waits for the answer (about two seconds for a 40 MiB heap). */
export function askHeldMemory(child: ChildProcess): Promise<HeldMemory> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error('the held-memory probe did not answer within 30 s')), 30_000)
    const onMessage = (message: unknown) => {
      const answer = message as { kind?: string } & HeldMemory
      if (answer?.kind !== 'held-memory') return
      const { rss, heapUsed, external, arrayBuffers } = answer
      done(undefined, { rss, heapUsed, external, arrayBuffers })
    }
    const onExit = () => done(new Error('the process ended before the held-memory probe answered'))
    const done = (error: Error | undefined, held?: HeldMemory) => {
      clearTimeout(timer)
      child.off('message', onMessage)
      child.off('exit', onExit)
      if (error) reject(error)
      else resolve(held as HeldMemory)
    }
    child.on('message', onMessage)
    child.once('exit', onExit)
    child.send('held-memory', (error) => {
      if (error) done(error)
    })
  })
}
