import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { haproxy } from '@weft/tooling/system-programs'
import { describeNeeding } from '@weft/tooling/tiers'
import { afterAll, describe, expect, it } from 'vitest'
import { composeConfig } from './compose-config.js'

// docker/compose.scale.yaml: API A as three replicas behind HAProxy with PostgreSQL and Redis. Read as
// Compose v2 reads it, without a compose binary (./compose-config.ts), and the HAProxy configuration it
// mounts checked with `haproxy -c` (the scale-out test runs the same file).
const dockerDir = new URL('..', import.meta.url).pathname
const scratch = mkdtempSync(join(tmpdir(), 'weft-compose-scale-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const secrets = ['API_A_SECRET_FILE', 'API_A_DB_PASSWORD_FILE', 'DB_A_ADMIN_PASSWORD_FILE']
const env = join(scratch, 'scale.env')
writeFileSync(
  env,
  [
    'API_A_DB_NAME=api_a',
    'API_A_DB_USER=api_a',
    ...secrets.map((name) => {
      const path = join(scratch, name.toLowerCase())
      writeFileSync(path, 'x'.repeat(48))
      return `${name}=${path}`
    }),
  ].join('\n'),
)

function config() {
  const result = composeConfig(join(dockerDir, 'compose.scale.yaml'), env, dockerDir)
  expect(result.errors).toEqual([])
  expect(result.warnings).toEqual([])
  return result.config
}

describe('docker/compose.scale.yaml', () => {
  it('passes `config` and runs three replicas of one image behind HAProxy', () => {
    const { services } = config()
    const replicas = ['api-a-1', 'api-a-2', 'api-a-3']
    expect(Object.keys(services).sort()).toEqual(['api-a-1', 'api-a-2', 'api-a-3', 'db', 'haproxy', 'redis'])
    for (const name of replicas) {
      expect(services[name].image).toBe('weft/api-a:local')
      expect(services[name].environment).toMatchObject({ REDIS_URL: 'redis://redis:6379', TRUST_PROXY: '1' })
      expect(services[name].ports).toBeUndefined()
    }
    expect(services.haproxy.environment).toMatchObject({
      REPLICA_1: 'api-a-1:3000',
      REPLICA_2: 'api-a-2:3000',
      REPLICA_3: 'api-a-3:3000',
    })
    expect(services.haproxy.ports).toEqual(['127.0.0.1:3000:8080'])
  })
})

describeNeeding([haproxy()], 'docker/haproxy/haproxy.cfg', () => {
  it('is a configuration that haproxy itself accepts', () => {
    const result = spawnSync(haproxy().path ?? 'haproxy', ['-c', '-f', join(dockerDir, 'haproxy', 'haproxy.cfg')], {
      encoding: 'utf8',
      env: {
        PATH: `${process.env.PATH ?? ''}:/usr/sbin`,
        LISTEN: ':8080',
        HAPROXY_SOCKET: join(scratch, 'admin.sock'),
        REPLICA_1: '127.0.0.1:3001',
        REPLICA_2: '127.0.0.1:3002',
        REPLICA_3: '127.0.0.1:3003',
      },
    })
    expect(result.stdout + result.stderr).toContain('Configuration file is valid')
    expect(result.status).toBe(0)
  })
})
