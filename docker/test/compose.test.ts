import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Validated with Debian's docker-compose (the Python implementation), run by the system python:
// `.ci/run` installs it. A missing tool fails this file instead of skipping it.
const compose = '/usr/bin/docker-compose'
const dockerDir = new URL('..', import.meta.url).pathname

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const run = (envFile: string) =>
  spawnSync('/usr/bin/python3', [compose, '-f', 'compose.yaml', '--env-file', envFile, 'config'], {
    cwd: dockerDir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  })

describe('docker/compose.yaml', () => {
  it('has a compose implementation to validate it with', () => {
    expect(existsSync(compose), 'install it: apt-get install --no-install-recommends docker-compose').toBe(true)
  })

  it('passes `config` with docker/.env.example and resolves every variable', () => {
    const result = run('.env.example')
    expect(result.stderr).not.toMatch(/WARNING|not set/i)
    expect(result.status).toBe(0)
    // `$${...}` in healthchecks is the container shell's, not compose's: only our settings must resolve.
    expect(result.stdout).not.toMatch(/\$\{API_/)
  })

  it('refuses to start without the settings (every secret and password is required)', () => {
    const empty = join(mkdtempSync(join(tmpdir(), 'weft-compose-')), 'empty.env')
    writeFileSync(empty, '')
    const result = run(empty)
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(/API_A_DB_USER|API_A_SECRET|API_B/)
  })

  it('gives each API its own database service and keeps databases off the host', () => {
    // docker-compose 1.x prints YAML only; its own python YAML module turns it into JSON.
    const yaml = run('.env.example').stdout
    const json = execFileSync(
      '/usr/bin/python3',
      ['-c', 'import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'],
      {
        input: yaml,
        encoding: 'utf8',
      },
    )
    const { services, volumes } = JSON.parse(json)
    expect(Object.keys(services).sort()).toEqual(['api-a', 'api-b', 'db-a', 'db-b'])
    expect(services['api-a'].environment.DB_HOST).toBe('db-a')
    expect(services['api-b'].environment.DB_HOST).toBe('db-b')
    expect(services['api-a'].depends_on['db-a'].condition).toBe('service_healthy')
    expect(services['api-b'].depends_on['db-b'].condition).toBe('service_healthy')
    expect(services['api-a'].ports[0]).toMatchObject({ published: 3000, target: 3000 })
    expect(services['api-b'].ports[0]).toMatchObject({ published: 3001, target: 3000 })
    for (const db of ['db-a', 'db-b']) {
      expect(services[db].ports).toBeUndefined()
      expect(services[db].image).toMatch(/^postgres:\d+(-[a-z]+)?$/)
      expect(services[db].healthcheck.test.join(' ')).toContain('pg_isready')
    }
    expect(Object.keys(volumes).sort()).toEqual(['db-a-data', 'db-b-data'])
  })
})
