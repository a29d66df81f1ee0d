import { type ChildProcess, spawn } from 'node:child_process'

/** A child process of the cluster, with its recent output kept for failure messages. */
export interface Child {
  readonly name: string
  readonly pid: number
  output(): string
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | string>
  readonly running: () => boolean
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with how it ended. Safe to call twice. */
  stop(graceMs?: number): Promise<number | string>
}

export function spawnChild(
  name: string,
  file: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string> },
): Child {
  const child: ChildProcess = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let ended = false
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = true
      resolve(code ?? signal ?? 'unknown')
    })
  })
  return {
    name,
    pid: child.pid ?? -1,
    output: () => log,
    exited,
    running: () => !ended,
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
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls `probe` until it resolves true; fails with `describe()` after `timeoutMs`. */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, describe: () => string) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await probe().catch(() => false)) return
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs} ms: ${describe()}`)
    await sleep(100)
  }
}
