import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/**
 * The programs some tests need that no package registry provides. Tests that need one run when it is
 * on the machine; `pnpm test` skips them otherwise (naming the install command), `pnpm test:all`
 * (`WEFT_TEST_ALL=1`) fails them (see `describeNeeding` in `./tiers.ts`).
 */
export interface SystemProgram {
  /** What it is, for people: `Chromium`. */
  readonly name: string
  /** Where it was found, or undefined. */
  readonly path: string | undefined
  /** The Debian package that installs it. */
  readonly debianPackage: string
}

/** Folders searched besides `PATH`: a non-root user's `PATH` often lacks the `sbin` ones (HAProxy). */
const extraDirs = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The first executable `command` on `PATH` or in the usual system folders. */
export function findExecutable(command: string): string | undefined {
  if (command.includes('/')) return executable(command) ? command : undefined
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...extraDirs]
  return dirs.map((dir) => join(dir, command)).find(executable)
}

function program(name: string, debianPackage: string, path: string | undefined): SystemProgram {
  return { name, debianPackage, path }
}

/** Chromium for the Swagger UI browser tests: `CHROMIUM_PATH` when set, else `chromium` on the machine. */
export function chromium(): SystemProgram {
  const path = process.env.CHROMIUM_PATH
    ? findExecutable(process.env.CHROMIUM_PATH)
    : (findExecutable('chromium') ?? findExecutable('chromium-browser'))
  return program('Chromium', 'chromium', path)
}

/** HAProxy, which runs docker/haproxy/haproxy.cfg in the scale-out test and checks it (`haproxy -c`). */
export function haproxy(): SystemProgram {
  return program('HAProxy', 'haproxy', findExecutable('haproxy'))
}

/** A Redis server of the scale-out test's own. */
export function redisServer(): SystemProgram {
  return program('Redis server', 'redis-server', findExecutable('redis-server'))
}

/** The one command that installs every program of `missing`. */
export function installCommand(missing: readonly SystemProgram[]): string {
  const packages = [...new Set(missing.map((p) => p.debianPackage))]
  return `apt-get install --no-install-recommends ${packages.join(' ')}`
}
