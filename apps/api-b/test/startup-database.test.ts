import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { createScratchDatabase, type ScratchDatabase } from '@weft/tooling/test-db'
import { freePort } from '@weft/tooling/test-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const appDir = fileURLToPath(new URL('..', import.meta.url))

/** Runs `src/server.ts` as `pnpm start` does, with only the given environment, until it exits. */
function runServer(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', 'src/server.ts'], {
    cwd: appDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      SECRET: 'startup-test-secret-of-forty-bytes-Qw3',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = { stdout: '', stderr: '' }
  child.stdout.on('data', (chunk) => (output.stdout += chunk))
  child.stderr.on('data', (chunk) => (output.stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), 50_000)
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, ...output })
    }),
  )
}

/**
 * Against a real PostgreSQL server (`TEST_DATABASE_URL`, else a throwaway one): the scratch database only
 * proves the server is there; the server process is pointed at a name that does not exist on it.
 */
describe('the server process on a PostgreSQL database it cannot use', () => {
  let scratch: ScratchDatabase
  let server: URL
  beforeAll(async () => {
    scratch = await createScratchDatabase('api_b_startup')
    server = new URL(scratch.url)
  })
  afterAll(() => scratch?.drop())

  it('says in one line that the database does not exist and how to create it, and exits 1', async () => {
    const name = `weft_missing_${randomBytes(6).toString('hex')}`
    const user = decodeURIComponent(server.username) || 'postgres'
    const result = await runServer({
      DB_HOST: server.hostname,
      DB_PORT: server.port || '5432',
      DB_USER: user,
      DB_PASSWORD: decodeURIComponent(server.password),
      DB_NAME: name,
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(
      `api-b: database ${name} does not exist: create it with \`createdb -h ${server.hostname} -p ${server.port || '5432'} -U ${user} ${name}\`\n`,
    )
  }, 60_000)

  it('says in one line that nothing listens on the port, and exits 1', async () => {
    const port = await freePort()
    const result = await runServer({ DB_HOST: '127.0.0.1', DB_PORT: String(port), DB_NAME: 'api_b' })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(
      `api-b: cannot connect to PostgreSQL at 127.0.0.1:${port} (connection refused): start it, or unset DB_* and DATABASE_URL to use the embedded database\n`,
    )
  }, 60_000)
})
