import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createScratchDatabase, type ScratchDatabase } from '@weft/tooling/test-db'
import { freePort, waitForHealth } from '@weft/tooling/test-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Reproduces what each image contains: the same `pnpm deploy --prod` as the Dockerfile, started from
// that folder alone through the image's entrypoint with the settings compose gives it (secrets as
// files), against the real test PostgreSQL. A runtime file or dependency missing from the deployed
// folder makes this fail. test/engine/run.sh runs the real images.
const repoRoot = new URL('../..', import.meta.url).pathname
const entrypoint = new URL('../entrypoint.sh', import.meta.url).pathname

interface Flow {
  app: 'api-a' | 'api-b'
  register: string
  registerBody: Record<string, string>
  login: string
  loginBody: Record<string, string>
  account: (id: number) => string
}

const user = { username: 'deployed_user', email: 'deployed@example.com', password: 'correct horse battery' }
const flows: Flow[] = [
  {
    app: 'api-a',
    register: '/api/auth/register',
    registerBody: user,
    login: '/api/auth/login',
    loginBody: { email: user.email, password: user.password },
    account: (id) => `/api/users/${id}`,
  },
  {
    app: 'api-b',
    register: '/api/user',
    registerBody: user,
    login: '/api/auth/login',
    loginBody: { username: user.username, password: user.password },
    account: (id) => `/api/user/${id}`,
  },
]

/** The API envelope's `data`, typed for the fields this test reads. */
async function dataOf<T>(response: Response): Promise<T> {
  return ((await response.json()) as { data: T }).data
}

describe.each(flows)('deployed $app', (flow) => {
  let folder: string
  let secrets: string | undefined
  let scratch: ScratchDatabase
  let server: ChildProcess
  let base: string
  let output = ''

  beforeAll(async () => {
    expect(existsSync(join(repoRoot, 'apps', flow.app, 'dist', 'server.js')), 'run `pnpm build` first').toBe(true)
    folder = mkdtempSync(join(tmpdir(), `weft-deploy-${flow.app}-`))
    execFileSync('pnpm', ['--filter', `@weft/${flow.app}`, 'deploy', '--prod', folder], {
      cwd: repoRoot,
      stdio: 'ignore',
    })
    scratch = await createScratchDatabase(`deploy_${flow.app}`)
    const db = new URL(scratch.url)
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    secrets = mkdtempSync(join(tmpdir(), `weft-secrets-${flow.app}-`))
    writeFileSync(join(secrets, 'secret'), 'deployed-artifact-test-secret-0123456789abcdef')
    writeFileSync(join(secrets, 'db_password'), decodeURIComponent(db.password))
    // The image's ENTRYPOINT and CMD; the server applies the migrations itself.
    server = spawn(entrypoint, ['node', 'dist/server.js'], {
      cwd: folder,
      // Only what compose sets, plus PATH: nothing from the workspace leaks in.
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DB_HOST: db.hostname,
        DB_PORT: db.port || '5432',
        DB_USER: decodeURIComponent(db.username),
        DB_PASSWORD_FILE: join(secrets, 'db_password'),
        DB_NAME: db.pathname.slice(1),
        SECRET_FILE: join(secrets, 'secret'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    server.stdout?.on('data', (chunk) => (output += chunk))
    server.stderr?.on('data', (chunk) => (output += chunk))
    await waitForHealth(base, server, () => output, 30_000)
  })

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.kill('SIGTERM')
      await exited
    }
    await scratch?.drop()
    if (folder) rmSync(folder, { recursive: true, force: true })
    if (secrets) rmSync(secrets, { recursive: true, force: true })
  })

  it('contains no TypeScript sources or dev tooling', () => {
    expect(existsSync(join(folder, 'src'))).toBe(false)
    expect(existsSync(join(folder, 'node_modules', 'vitest'))).toBe(false)
    expect(existsSync(join(folder, 'node_modules', 'tsx'))).toBe(false)
  })

  it('registers, logs in and serves an authorised call', async () => {
    const json = { 'content-type': 'application/json' }
    const registered = await fetch(base + flow.register, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(flow.registerBody),
    })
    expect(registered.status).toBe(201)
    const created = await dataOf<{ id: number }>(registered)
    expect(created).toMatchObject({ username: user.username, email: user.email })
    expect(created).not.toHaveProperty('password_hash')

    const login = await fetch(base + flow.login, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(flow.loginBody),
    })
    expect(login.status).toBe(200)
    const token = await dataOf<{ access_token: string; token_type: string }>(login)
    expect(token.token_type).toBe('Bearer')

    const account = await fetch(base + flow.account(created.id), {
      headers: { authorization: `Bearer ${token.access_token}` },
    })
    expect(account.status).toBe(200)
    expect(await dataOf(account)).toMatchObject({ id: created.id, email: user.email })

    const anonymous = await fetch(base + flow.account(created.id))
    expect(anonymous.status).toBe(401)
  })

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)))
    server.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})

describe('docker/entrypoint.sh', () => {
  const secrets = mkdtempSync(join(tmpdir(), 'weft-entrypoint-'))
  writeFileSync(join(secrets, 'secret'), 'from-a-file')
  afterAll(() => rmSync(secrets, { recursive: true, force: true }))
  const run = (env: Record<string, string>) =>
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, run by sh
    spawnSync(entrypoint, ['sh', '-c', 'printf %s "$SECRET|${SECRET_FILE:-unset}"'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', ...env },
    })

  it('reads VAR from VAR_FILE and hides the file setting from the app', () => {
    const result = run({ SECRET_FILE: join(secrets, 'secret') })
    expect(result.status).toBe(0)
    expect(result.stdout).toBe('from-a-file|unset')
  })

  it.each([
    [
      'both VAR and VAR_FILE are set',
      { SECRET: 'inline', SECRET_FILE: join(secrets, 'secret') },
      /both SECRET and SECRET_FILE/,
    ],
    [
      'VAR_FILE names no readable file',
      { SECRET_FILE: join(secrets, 'missing') },
      /SECRET_FILE=.* is not a readable file/,
    ],
  ])('refuses to start when %s', (_case, env, message) => {
    const result = run(env)
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(message)
    expect(result.stdout).toBe('')
  })
})
