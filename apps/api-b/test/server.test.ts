import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createScratchDatabase, type ScratchDatabase, testDatabaseKinds } from '@weft/tooling/test-db'
import { freePort, waitForHealth, waitForOutput } from '@weft/tooling/test-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_SECRET } from './support.js'

describe.each(testDatabaseKinds())('the server process on %s', (kind) => {
  let scratch: ScratchDatabase | undefined
  let dataDir: string | undefined
  let server: ChildProcess
  let base: string
  let output = ''

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '',
      SECRET: TEST_SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      SCRYPT_COST: '1024',
    }
    if (kind === 'postgres') {
      scratch = await createScratchDatabase('api_b_server')
      env.DATABASE_URL = scratch.url
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'api-b-pglite-'))
      env.PGLITE_DIR = dataDir
    }
    const entry = new URL('../src/server.ts', import.meta.url).pathname
    server = spawn(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', entry], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    server.stdout?.on('data', (chunk) => (output += chunk))
    server.stderr?.on('data', (chunk) => (output += chunk))
    await waitForHealth(base, server, () => output)
  }, 90_000)

  afterAll(async () => {
    if (server && server.exitCode === null) server.kill('SIGKILL')
    await scratch?.drop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('migrates on start and serves register, login and an authorised read over HTTP', async () => {
    const json = { 'content-type': 'application/json' }
    const user = { username: 'server_user', email: 'server@example.com', password: 'correct horse battery' }
    const registered = await fetch(`${base}/api/user`, { method: 'POST', headers: json, body: JSON.stringify(user) })
    expect(registered.status).toBe(201)
    const { data: created } = (await registered.json()) as { data: { id: number } }
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: user.username, password: user.password }),
    })
    const { data: token } = (await login.json()) as { data: { access_token: string } }
    const read = await fetch(`${base}/api/user/${created.id}/`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    })
    expect(read.status).toBe(200)
    expect(((await read.json()) as { data: unknown }).data).toEqual(created)
  })

  it('logs where Swagger UI is', async () => {
    await waitForOutput(server, () => output, `Swagger UI at ${base}/docs`)
    expect((await fetch(`${base}/docs`)).status).toBe(200)
  })

  it('logs requests without the password or the token', async () => {
    await waitForOutput(server, () => output, 'request completed')
    expect(output).not.toContain('correct horse battery')
    expect(output.toLowerCase()).not.toContain('bearer')
  })

  it('shuts down on SIGTERM with exit code 0', async () => {
    // 'close', not 'exit': it comes after the output pipes are drained, so the last log line is in `output`.
    const exited = new Promise<number | null>((resolve) => server.once('close', (code) => resolve(code)))
    server.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(output).toContain('SIGTERM received, shutting down')
  }, 60_000)
})

describe('the server process without a SECRET', () => {
  const entry = new URL('../src/server.ts', import.meta.url).pathname
  const start = (env: NodeJS.ProcessEnv) =>
    spawn(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', entry], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PGLITE_DIR: 'memory://', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })

  it('refuses to start in production', async () => {
    const server = start({ NODE_ENV: 'production' })
    let output = ''
    server.stderr?.on('data', (chunk) => (output += chunk))
    const code = await new Promise<number | null>((resolve) => server.once('close', resolve))
    expect(code).toBe(1)
    expect(output).toContain('SECRET must be at least 32 bytes')
  }, 60_000)

  it('starts outside production with a random secret, and says so', async () => {
    const port = await freePort()
    const server = start({ PORT: String(port) })
    let output = ''
    server.stdout?.on('data', (chunk) => (output += chunk))
    server.stderr?.on('data', (chunk) => (output += chunk))
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, server, () => output)
      expect(output).toContain('SECRET is not set: using a random secret for this process only')
    } finally {
      server.kill('SIGKILL')
    }
  }, 90_000)
})
