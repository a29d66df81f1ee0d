import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Rules every API image must follow; checked here because no Docker engine runs on our machines.
const dockerfiles = ['api-a', 'api-b'].map((app) => ({
  app,
  text: readFileSync(new URL(`../${app}.Dockerfile`, import.meta.url), 'utf8'),
}))

/** Instructions with line continuations joined, comments dropped. */
function instructions(text: string): string[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
}

/** The instructions of the last stage: what the running container is made of. */
function runtimeStage(text: string): string[] {
  const all = instructions(text)
  const lastFrom = all.map((line) => /^FROM\s/i.test(line)).lastIndexOf(true)
  return all.slice(lastFrom)
}

describe.each(dockerfiles)('docker/$app.Dockerfile', ({ app, text }) => {
  it('pins every base image to an exact official Node version', () => {
    const images = instructions(text)
      .filter((line) => /^FROM\s/i.test(line))
      .map((line) => line.split(/\s+/)[1])
    expect(images.length).toBeGreaterThanOrEqual(2)
    for (const image of images) expect(image).toMatch(/^node:\d+\.\d+\.\d+-[a-z]+(-slim)?$/)
  })

  it('runs as a non-root user in the runtime stage', () => {
    const users = runtimeStage(text).filter((line) => /^USER\s/i.test(line))
    expect(users).toHaveLength(1)
    expect(users[0]).not.toMatch(/^USER\s+(root|0)(:|\s|$)/i)
  })

  it('has a HEALTHCHECK on /api/health and NODE_ENV=production', () => {
    const stage = runtimeStage(text).join('\n')
    expect(stage).toMatch(/^HEALTHCHECK .*\/api\/health/m)
    expect(stage).toMatch(/^ENV .*NODE_ENV=production/m)
  })

  it('deploys only its own app with production dependencies', () => {
    expect(text).toContain(`pnpm --filter @weft/${app} deploy --prod /out`)
    expect(runtimeStage(text).join('\n')).toMatch(/^COPY --from=build --chown=node:node \/out /m)
  })

  it('runs migrations, then the server', () => {
    const cmd = runtimeStage(text).find((line) => /^CMD\s/i.test(line))
    expect(cmd).toContain('node dist/db/migrate.js && exec node dist/server.js')
  })

  it('bakes no secrets into the image', () => {
    for (const line of instructions(text).filter((l) => /^(ENV|ARG)\s/i.test(l))) {
      expect(line).not.toMatch(/(SECRET|PASSWORD|TOKEN|PRIVATE|_KEY)\s*=/i)
    }
    expect(text).not.toMatch(/^COPY\s.*\.env(\s|$)/m)
  })
})

describe('.dockerignore', () => {
  const ignore = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8').split('\n')

  it.each(['**/node_modules', '**/dist', '**/.env', '.git', '**/.pglite'])(
    'keeps %s out of the build context',
    (entry) => {
      expect(ignore).toContain(entry)
    },
  )
})
