// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${...} here is Compose's syntax, not JavaScript's
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { composeConfig } from './compose-config.js'

// The checker the compose tests rely on must refuse what Compose v2 refuses, or their green means nothing.
const scratch = mkdtempSync(join(tmpdir(), 'weft-compose-config-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function check(yaml: string, env = '') {
  const file = join(scratch, 'compose.yaml')
  const envFile = join(scratch, 'test.env')
  writeFileSync(file, yaml)
  writeFileSync(envFile, env)
  return composeConfig(file, envFile, scratch)
}

describe('composeConfig', () => {
  it('refuses a key the Compose Specification does not know, naming where', () => {
    const result = check('services:\n  web:\n    image: nginx\n    read_onyl: true\n')
    expect(result.errors.join('\n')).toMatch(/\/services\/web must NOT have additional properties/)
  })

  it('refuses a value of the wrong type', () => {
    const result = check('services:\n  web:\n    image: nginx\n    cap_drop: 3\n')
    expect(result.errors.join('\n')).toContain('/services/web/cap_drop')
  })

  it('interpolates defaults, alternatives, required values and $$ as Compose does', () => {
    const yaml = [
      'services:',
      '  web:',
      '    image: ${IMAGE:-nginx}',
      '    command: ["echo", "$${HOME}", "${SET:+yes}", "${EMPTY-kept}", "${EMPTY:-replaced}"]',
      '    environment:',
      '      NEED: ${NEED:?set NEED first}',
      '      PLAIN: $SET',
    ].join('\n')
    const result = check(yaml, 'SET=1\nEMPTY=\nNEED=here\n')
    expect(result.errors).toEqual([])
    expect(result.config.services.web).toMatchObject({
      image: 'nginx',
      command: ['echo', '${HOME}', 'yes', '', 'replaced'],
      environment: { NEED: 'here', PLAIN: '1' },
    })
  })

  it('reports a required variable that is unset or empty with its message', () => {
    const result = check('services:\n  web:\n    image: ${IMAGE:?set IMAGE in .env}\n', 'IMAGE=\n')
    expect(result.errors).toContain('required variable IMAGE is missing a value: set IMAGE in .env')
  })

  it('warns about a variable that is not set at all', () => {
    const result = check('services:\n  web:\n    image: nginx:${TAG}\n')
    expect(result.warnings).toEqual(['The "TAG" variable is not set. Defaulting to a blank string.'])
  })

  it('applies merge keys and resolves relative bind mounts from the project folder', () => {
    const yaml = [
      'x-base: &base',
      '  image: nginx',
      '  read_only: true',
      'services:',
      '  web:',
      '    <<: *base',
      '    volumes: ["./conf:/etc/nginx/conf.d:ro", "data:/data"]',
      'volumes:',
      '  data:',
    ].join('\n')
    const result = check(yaml)
    expect(result.errors).toEqual([])
    expect(result.config).not.toHaveProperty('x-base')
    expect(result.config.services.web).toMatchObject({ image: 'nginx', read_only: true })
    expect(result.config.services.web.volumes).toEqual([`${join(scratch, 'conf')}:/etc/nginx/conf.d:ro`, 'data:/data'])
  })
})
