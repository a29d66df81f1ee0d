import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Rules for docker/Dockerfile, the one recipe of both API images (`--build-arg APP=api-a|api-b`).
// The engine test (test/engine/run.sh) builds and runs it for real; these name each rule.
const text = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8')
// biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own variable, as written there
const APP = '${APP}'

/** Instructions with line continuations joined, comments dropped. */
function instructions(source: string): string[] {
  return source
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
}

/** The instructions of the stage named `name` (or of the last stage). */
function stage(name?: string): string[] {
  const all = instructions(text)
  const starts = all.flatMap((line, index) => (/^FROM\s/i.test(line) ? [index] : []))
  const start =
    name === undefined ? starts.at(-1) : starts.find((i) => all[i]?.match(new RegExp(`\\sAS\\s+${name}$`, 'i')))
  expect(start, `stage ${name}`).toBeDefined()
  const end = starts.find((i) => i > (start as number)) ?? all.length
  return all.slice(start, end)
}

const from = instructions(text)
  .filter((line) => /^FROM\s/i.test(line))
  .map((line) => line.split(/\s+/)[1] as string)

describe('docker/Dockerfile', () => {
  it('needs no frontend from a registry (no `# syntax=` line)', () => {
    expect(text).not.toMatch(/^#\s*syntax\s*=/im)
  })

  it('is one recipe for both apps, chosen by ARG APP', () => {
    expect(instructions(text)[0]).toMatch(/^ARG APP=api-a$/)
    expect(stage('build')).toContain('ARG APP')
    expect(text).toContain(`pnpm --filter "@weft/${APP}" deploy --prod /out`)
  })

  it('pins every external base image to the exact Node version CI tests with (a digest may follow)', () => {
    const external = from.filter((image) => image.includes(':'))
    expect(external.length).toBeGreaterThanOrEqual(2)
    for (const image of external) expect(image).toMatch(/^node:20\.20\.2-bookworm-slim(@sha256:[0-9a-f]{64})?$/)
  })

  it("copies the repository's LICENSE before the build: the libraries' build puts it in their publish folder", () => {
    const build = stage('build')
    const copyLicense = build.findIndex((line) => /^COPY\s+LICENSE\s/.test(line))
    expect(copyLicense).toBeGreaterThan(-1)
    expect(copyLicense).toBeLessThan(build.findIndex((line) => line.includes('run build')))
    expect(readFileSync(new URL('../../tooling/scripts/publish-dir.mjs', import.meta.url), 'utf8')).toContain(
      "join(root, 'LICENSE')",
    )
  })

  it('installs from the lockfile and the manifests before copying the sources, only the app closure', () => {
    const build = stage('build')
    const install = build.findIndex((line) => line.includes('pnpm install --frozen-lockfile'))
    const sources = build.findIndex((line) => line.startsWith('COPY packages'))
    expect(build.findIndex((line) => line.startsWith('COPY pnpm-lock.yaml'))).toBeLessThan(install)
    expect(build.findIndex((line) => line.startsWith('COPY --from=manifests'))).toBeLessThan(install)
    expect(install).toBeGreaterThan(-1)
    expect(install).toBeLessThan(sources)
    expect(build[install]).toContain(`--filter "@weft/${APP}..."`)
    // Sources: the app's own folder and the shared workspaces, not the whole repository.
    expect(build).not.toContain('COPY . .')
    expect(build).toContain(`COPY apps/${APP} ./apps/${APP}`)
    // The manifests stage keeps package.json files only.
    expect(stage('manifests').join('\n')).toMatch(/find \. -name package\.json/)
  })

  it('hands an optional corporate CA to every registry call as a BuildKit secret', () => {
    const registryCalls = instructions(text).filter((line) => /npm install|pnpm install/.test(line))
    expect(registryCalls.length).toBeGreaterThanOrEqual(2)
    for (const line of registryCalls) {
      expect(line).toContain('--mount=type=secret,id=corporate_ca')
      expect(line).toContain('NODE_EXTRA_CA_CERTS=/run/secrets/corporate_ca')
    }
  })

  it('runs as a non-root user in the runtime stage', () => {
    const users = stage().filter((line) => /^USER\s/i.test(line))
    expect(users).toHaveLength(1)
    expect(users[0]).not.toMatch(/^USER\s+(root|0)(:|\s|$)/i)
  })

  it('leaves the app files owned by root and read-only', () => {
    const copy = stage().find((line) => line.startsWith('COPY --from=build'))
    expect(copy).toBe('COPY --from=build /out ./')
    expect(stage('build').join('\n')).toMatch(/chmod -R a-w \/out/)
  })

  it('gives the embedded-database fallback a node-owned folder', () => {
    const runtime = stage().join('\n')
    expect(runtime).toMatch(/^ENV .*PGLITE_DIR=\/var\/lib\/weft\/pglite/m)
    expect(runtime).toMatch(/chown node:node \/var\/lib\/weft/)
  })

  it('has a HEALTHCHECK on /api/health and NODE_ENV=production', () => {
    const runtime = stage().join('\n')
    expect(runtime).toMatch(/^HEALTHCHECK .*\/api\/health/m)
    expect(runtime).toMatch(/^ENV .*NODE_ENV=production/m)
  })

  it('reads *_FILE secrets in its entrypoint, then runs the server (which migrates once) as PID 1', () => {
    const runtime = stage()
    expect(runtime).toContain('ENTRYPOINT ["weft-entrypoint"]')
    expect(runtime.find((line) => /^CMD\s/i.test(line))).toBe('CMD ["node", "dist/server.js"]')
    expect(readFileSync(new URL('../entrypoint.sh', import.meta.url), 'utf8')).toMatch(/^exec "\$@"$/m)
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

  it.each(['**/node_modules', '**/dist', '**/.env', '.git', '**/.pglite', 'docker/secrets'])(
    'keeps %s out of the build context',
    (entry) => {
      expect(ignore).toContain(entry)
    },
  )
})
