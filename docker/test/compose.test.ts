// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${...} here is Compose's syntax, not JavaScript's
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { composeConfig } from './compose-config.js'

// Read as Compose v2 reads it (docker/README's official path), without any compose binary:
// ./compose-config.ts parses, interpolates and validates it against the Compose Specification's schema.
const dockerDir = new URL('..', import.meta.url).pathname
const composeFile = join(dockerDir, 'compose.yaml')
const source = readFileSync(composeFile, 'utf8')
const scratch = mkdtempSync(join(tmpdir(), 'weft-compose-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

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

const run = (env: string) => composeConfig(composeFile, env, dockerDir)

const config = () => {
  const result = run(filled)
  expect(result.errors).toEqual([])
  return result.config
}

describe('docker/compose.yaml', () => {
  it('follows the Compose Specification once every setting is given', () => {
    expect(run(filled).errors).toEqual([])
  })

  it('names the project weft', () => {
    expect(source).toMatch(/^name: weft$/m)
  })

  it('passes `config` once every secret file is given, and resolves every variable', () => {
    const result = run(filled)
    expect(result.warnings).toEqual([])
    expect(result.errors).toEqual([])
    // `$${...}` in healthchecks is the container shell's, not compose's: only our settings must resolve.
    expect(JSON.stringify(result.config)).not.toMatch(/\$\{(API|DB)_/)
    expect(result.config.services['db-a'].healthcheck.test[1]).toContain('"${APP_DB_USER}"')
  })

  it('refuses docker/.env.example as it is (its secrets are empty)', () => {
    const result = run(join(dockerDir, '.env.example'))
    expect(result.errors).not.toEqual([])
  })

  it.each(secretNames)('refuses to start while %s is empty', (name) => {
    const values = Object.fromEntries(secretNames.map((key) => [key, join(scratch, key.toLowerCase())]))
    const result = run(envFile({ ...values, [name]: '' }, `without-${name}.env`))
    expect(result.errors).toContain(`required variable ${name} is missing a value: set ${name} in docker/.env`)
  })

  it('refuses to start with no settings at all', () => {
    const empty = join(scratch, 'empty.env')
    writeFileSync(empty, '')
    const result = run(empty)
    expect(result.errors.join('\n')).toMatch(/API_A|API_B|DB_A|DB_B/)
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
    expect(services['api-a'].ports).toEqual(['127.0.0.1:3000:3000'])
    expect(services['api-b'].ports).toEqual(['127.0.0.1:3001:3000'])
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
