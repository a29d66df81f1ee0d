import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Validated with Debian's docker-compose 1.29 (the Python implementation), run by the system python:
// `.ci/run` installs it. A missing tool fails this file instead of skipping it. Compose v1 does not
// know Compose v2's top-level `name:`, so it reads the file without that line (as test/engine does).
const compose = '/usr/bin/docker-compose'
const dockerDir = new URL('..', import.meta.url).pathname
const source = readFileSync(join(dockerDir, 'compose.yaml'), 'utf8')
const scratch = mkdtempSync(join(tmpdir(), 'weft-compose-'))
const v1File = join(scratch, 'compose.yaml')
writeFileSync(v1File, source.replace(/^name: .*\n/m, ''))

/** An env file from docker/.env.example, with `values` filled in. */
function envFile(values: Record<string, string>, name = 'filled.env'): string {
  const lines = readFileSync(join(dockerDir, '.env.example'), 'utf8')
    .split('\n')
    .map((line) => {
      const key = line.match(/^([A-Z0-9_]+)=/)?.[1]
      return key && key in values ? `${key}=${values[key]}` : line
    })
  const path = join(scratch, name)
  writeFileSync(path, lines.join('\n'))
  return path
}

const secretNames = [
  'API_A_SECRET_FILE',
  'API_A_DB_PASSWORD_FILE',
  'DB_A_ADMIN_PASSWORD_FILE',
  'API_B_SECRET_FILE',
  'API_B_DB_PASSWORD_FILE',
  'DB_B_ADMIN_PASSWORD_FILE',
]
const filled = envFile(
  Object.fromEntries(
    secretNames.map((name) => {
      const path = join(scratch, name.toLowerCase())
      writeFileSync(path, 'x'.repeat(48))
      return [name, path]
    }),
  ),
)

const run = (env: string) =>
  spawnSync(
    '/usr/bin/python3',
    [compose, '-f', v1File, '--project-directory', dockerDir, '--env-file', env, 'config'],
    {
      cwd: dockerDir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    },
  )

// biome-ignore lint/suspicious/noExplicitAny: compose's output, whose fields the tests check one by one
let parsed: { services: Record<string, any>; volumes: Record<string, unknown>; secrets: Record<string, unknown> }
function config() {
  if (parsed) return parsed
  const result = run(filled)
  expect(result.stderr).toBe('')
  // docker-compose 1.x prints YAML only; its own python YAML module turns it into JSON.
  const json = execFileSync(
    '/usr/bin/python3',
    ['-c', 'import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'],
    {
      input: result.stdout,
      encoding: 'utf8',
    },
  )
  parsed = JSON.parse(json)
  return parsed
}

describe('docker/compose.yaml', () => {
  it('has a compose implementation to validate it with', () => {
    expect(existsSync(compose), 'install it: apt-get install --no-install-recommends docker-compose').toBe(true)
  })

  it('names the project weft', () => {
    expect(source).toMatch(/^name: weft$/m)
  })

  it('passes `config` once every secret file is given, and resolves every variable', () => {
    const result = run(filled)
    expect(result.stderr).not.toMatch(/WARNING|not set/i)
    expect(result.status).toBe(0)
    // `$${...}` in healthchecks is the container shell's, not compose's: only our settings must resolve.
    expect(result.stdout).not.toMatch(/\$\{(API|DB)_/)
  })

  it('refuses docker/.env.example as it is (its secrets are empty)', () => {
    const result = run(join(dockerDir, '.env.example'))
    expect(result.status).not.toBe(0)
  })

  it.each(secretNames)('refuses to start while %s is empty', (name) => {
    const values = Object.fromEntries(secretNames.map((key) => [key, join(scratch, key.toLowerCase())]))
    const result = run(envFile({ ...values, [name]: '' }, `without-${name}.env`))
    expect(result.status).not.toBe(0)
    expect(result.stderr).toContain(`set ${name} in docker/.env`)
  })

  it('refuses to start with no settings at all', () => {
    const empty = join(scratch, 'empty.env')
    writeFileSync(empty, '')
    const result = run(empty)
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(/API_A|API_B|DB_A|DB_B/)
  })

  it('gives each API its own database service and keeps databases off the host', () => {
    const { services, volumes } = config()
    expect(Object.keys(services).sort()).toEqual(['api-a', 'api-b', 'db-a', 'db-b'])
    expect(services['api-a'].environment.DB_HOST).toBe('db-a')
    expect(services['api-b'].environment.DB_HOST).toBe('db-b')
    expect(services['api-a'].depends_on['db-a'].condition).toBe('service_healthy')
    expect(services['api-b'].depends_on['db-b'].condition).toBe('service_healthy')
    for (const db of ['db-a', 'db-b']) {
      expect(services[db].ports).toBeUndefined()
      expect(services[db].image).toMatch(/^postgres:15-bookworm(@sha256:[0-9a-f]{64})?$/)
    }
    expect(Object.keys(volumes).sort()).toEqual(['db-a-data', 'db-b-data'])
  })

  it('publishes the APIs on 127.0.0.1 only, by default', () => {
    const { services } = config()
    // Compose v1 prints ports as `host_ip:published:target/protocol`.
    expect(services['api-a'].ports).toEqual(['127.0.0.1:3000:3000/tcp'])
    expect(services['api-b'].ports).toEqual(['127.0.0.1:3001:3000/tcp'])
  })

  it('builds both APIs from the one Dockerfile with ARG APP', () => {
    const { services } = config()
    for (const app of ['api-a', 'api-b']) {
      expect(services[app].build).toMatchObject({ dockerfile: 'docker/Dockerfile', args: { APP: app } })
    }
  })

  it.each(['api-a', 'api-b', 'db-a', 'db-b'])(
    'hardens %s: read-only, no capabilities, no new privileges, rotated logs',
    (name) => {
      const service = config().services[name]
      expect(service.read_only).toBe(true)
      expect(service.cap_drop).toEqual(['ALL'])
      expect(service.security_opt).toContain('no-new-privileges:true')
      expect(service.logging).toMatchObject({ driver: 'json-file', options: { 'max-size': '10m', 'max-file': '3' } })
      expect(service.restart).toBe('unless-stopped')
    },
  )

  it('gives the APIs more stop time than their own 10 s shutdown grace', () => {
    const { services } = config()
    for (const app of ['api-a', 'api-b'])
      expect(Number.parseInt(services[app].stop_grace_period, 10)).toBeGreaterThan(10)
  })

  it('checks database health over TCP, so a database still initialising is not healthy', () => {
    const { services } = config()
    for (const db of ['db-a', 'db-b']) {
      expect(services[db].healthcheck.test.join(' ')).toMatch(/pg_isready -h 127\.0\.0\.1/)
    }
  })

  it('passes every secret and password as a file, never as a plain variable', () => {
    const { services, secrets } = config()
    for (const [name, service] of Object.entries<{ environment: Record<string, string> }>(services)) {
      for (const key of Object.keys(service.environment)) {
        expect(key, `${name}.${key}`).not.toMatch(/(SECRET|PASSWORD)$/)
      }
    }
    expect(services['api-a'].environment).toMatchObject({
      SECRET_FILE: '/run/secrets/api_a_secret',
      DB_PASSWORD_FILE: '/run/secrets/api_a_db_password',
    })
    expect(services['db-a'].environment).toMatchObject({
      POSTGRES_PASSWORD_FILE: '/run/secrets/db_a_admin_password',
      APP_DB_PASSWORD_FILE: '/run/secrets/api_a_db_password',
    })
    expect(Object.keys(secrets).sort()).toEqual([
      'api_a_db_password',
      'api_a_secret',
      'api_b_db_password',
      'api_b_secret',
      'db_a_admin_password',
      'db_b_admin_password',
    ])
  })

  it('connects each API as its own least-privilege role, created by the init script', () => {
    const { services } = config()
    expect(services['api-a'].environment.DB_USER).toBe(services['db-a'].environment.APP_DB_USER)
    expect(services['db-a'].environment.POSTGRES_USER).not.toBe(services['api-a'].environment.DB_USER)
    expect(services['db-a'].volumes).toContain(`${join(dockerDir, 'postgres/initdb')}:/docker-entrypoint-initdb.d:ro`)
  })
})
