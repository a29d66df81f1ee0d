import { type ChildProcess, execSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { asShellCommand, copyOfApp, runItSteps } from '@weft/tooling/readme-steps'
import { freePort, waitForHealth, waitForOutput } from '@weft/tooling/test-server'
import { afterAll, describe, expect, it } from 'vitest'

const appDir = fileURLToPath(new URL('..', import.meta.url))

/**
 * The README's "Run it" steps, followed literally in a fresh copy of the app: `cd apps/api-b` is the copy,
 * then each command runs there in turn, with no settings but what the steps write (only the port is set
 * from outside, so the test never collides with a running server: the environment wins over `.env`).
 */
describe("the README's Run it steps", () => {
  const copy = copyOfApp(appDir)
  let server: ChildProcess | undefined
  afterAll(() => {
    if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGKILL')
    copy.remove()
  })

  it('start the server on the copied .env.example, with the SECRET the secret step wrote', async () => {
    const steps = runItSteps(join(appDir, 'README.md'))
    expect(steps[0]).toBe('cd apps/api-b')
    const scripts = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')).scripts
    const commands = steps.slice(1).map((step) => asShellCommand(step, scripts))
    const env = { PATH: `${join(copy.dir, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, HOME: copy.dir }
    for (const command of commands.slice(0, -1)) execSync(command, { cwd: copy.dir, env, stdio: 'pipe' })
    expect(readFileSync(join(copy.dir, '.env'), 'utf8')).toMatch(/^SECRET=[\w-]{64}$/m)

    const port = await freePort()
    const base = `http://127.0.0.1:${port}`
    let output = ''
    server = spawn('/bin/sh', ['-c', commands.at(-1) ?? ''], {
      cwd: copy.dir,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    server.stdout?.on('data', (chunk) => (output += chunk))
    server.stderr?.on('data', (chunk) => (output += chunk))
    await waitForHealth(base, server, () => output)
    // The docs line is logged last of all; it may reach our pipe after the server already answers.
    await waitForOutput(server, () => output, `Swagger UI at ${base}/docs`)
    expect(output).toContain(`using embedded PGlite in ${join(copy.dir, '.pglite')}`)
    expect(output).not.toContain('SECRET is not set')
    expect(output).toContain(`Swagger UI at ${base}/docs`)
  }, 120_000)
})
