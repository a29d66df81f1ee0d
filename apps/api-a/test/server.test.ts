import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createScratchDatabase } from '@weft/tooling/test-db'
import { afterEach, describe, expect, it } from 'vitest'

const appDir = fileURLToPath(new URL('..', import.meta.url))
const children: ChildProcess[] = []

// A failed or timed-out test must not leave its server running.
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

/** Runs `src/server.ts` as `pnpm start` does, with only the given environment (plus PATH). */
function startServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', 'src/server.ts'], {
    cwd: appDir,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  return child
}

function collect(child: ChildProcess) {
  const output = { stdout: '', stderr: '' }
  child.stdout?.on('data', (chunk) => {
    output.stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output.stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { output, exited }
}

/** Waits until the server's log has a line matching `pattern`, and returns the match (throws if it exits first). */
async function logged(output: { stdout: string }, pattern: RegExp, exited: Promise<unknown>): Promise<RegExpExecArray> {
  for (let i = 0; i < 9000; i++) {
    const match = pattern.exec(output.stdout)
    if (match) return match
    const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 10))])
    if (done) break
  }
  throw new Error(`the server did not log ${pattern}:\n${output.stdout}`)
}

async function listening(output: { stdout: string }, exited: Promise<unknown>): Promise<string> {
  const [, base] = await logged(output, /Server listening at (http:\/\/127\.0\.0\.1:\d+)/, exited)
  return base as string
}

describe('the server process', () => {
  it('refuses to start with a SECRET shorter than 32 bytes, saying why', async () => {
    const { output, exited } = collect(startServer({ SECRET: 'too-short' }))
    expect(await exited).toBe(1)
    expect(output.stderr).toContain('refusing to start: SECRET must be set to at least 32 bytes (got 9)')
  }, 60_000)

  it('refuses to start without a SECRET in production', async () => {
    const { output, exited } = collect(startServer({ NODE_ENV: 'production', PGLITE_DIR: 'memory://' }))
    expect(await exited).toBe(1)
    expect(output.stderr).toContain('refusing to start: SECRET must be set to at least 32 bytes (got 0)')
  }, 60_000)

  it('starts without a SECRET outside production, with a random one and a warning', async () => {
    const { output, exited } = collect(startServer({ PGLITE_DIR: 'memory://' }))
    const base = await listening(output, exited)
    expect((await fetch(`${base}/api/health`)).status).toBe(200)
    expect(output.stdout).toContain('SECRET is not set: using a random secret for this process only')
  }, 60_000)

  it('logs where Swagger UI is, as localhost when it listens on every interface', async () => {
    const { output, exited } = collect(startServer({ PGLITE_DIR: 'memory://', HOST: '0.0.0.0' }))
    const base = await listening(output, exited)
    const port = new URL(base).port
    expect(output.stdout).toContain(`Swagger UI at http://localhost:${port}/docs`)
    expect((await fetch(`http://localhost:${port}/docs`)).status).toBe(200)
  }, 60_000)

  it('migrates, serves, and on SIGTERM finishes the in-flight request and exits 0', async () => {
    // The real server starts much faster than a fresh embedded database when there is one.
    const scratch = process.env.TEST_DATABASE_URL ? await createScratchDatabase('api_a_server') : undefined
    const database: Record<string, string> = scratch ? { DATABASE_URL: scratch.url } : { PGLITE_DIR: 'memory://' }
    const child = startServer({ SECRET: 'a-secret-for-the-server-test-of-40-bytes', SCRYPT_COST: '16384', ...database })
    try {
      const { output, exited } = collect(child)
      const base = await listening(output, exited)
      const health = await fetch(`${base}/api/health`)
      expect(health.status).toBe(200)
      // A register (one scrypt run) is in flight when SIGTERM arrives.
      const inFlight = fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'graceful', email: 'graceful@example.com', password: 'long enough' }),
      })
      // SIGTERM only once the server has the request: one that arrives after it is refused with 503 by design.
      await logged(output, /"url":"\/api\/auth\/register"[^\n]*"msg":"incoming request"/, exited)
      child.kill('SIGTERM')
      const res = await inFlight
      expect(res.status).toBe(201)
      expect(await exited).toBe(0)
      expect(output.stdout).toContain('SIGTERM: shutting down')
      expect(output.stdout).not.toContain('long enough')
    } finally {
      child.kill('SIGKILL')
      await scratch?.drop()
    }
  }, 120_000)
})
