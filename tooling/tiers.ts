import { describe, it } from 'vitest'
import { installCommand, type SystemProgram } from './system-programs.js'

/**
 * True under `pnpm test:all` (what CI runs): every test must run, so a missing program is a failure.
 * Under `pnpm test` a missing program skips the tests that need it.
 */
export function testingAll(): boolean {
  return process.env.WEFT_TEST_ALL === '1'
}

/** Why the tests that need `missing` cannot run, and the one command that fixes it. */
export function missingMessage(missing: readonly SystemProgram[]): string {
  const names = missing.map((p) => p.name).join(', ')
  return `needs ${names}, not found on this machine: install with \`${installCommand(missing)}\``
}

/**
 * `describe(name, body)` for tests that need system programs (`./system-programs.ts`). All present: the
 * tests run. One missing: under `pnpm test` they are reported as skipped, their suite's name saying what is
 * missing and the install command; under `pnpm test:all` one test fails with that message instead (the
 * body is not run, so nothing fails for an unrelated-looking reason).
 *
 * @example
 * describeNeeding([chromium()], 'Swagger UI in headless Chromium', () => { ... })
 */
export function describeNeeding(programs: readonly SystemProgram[], name: string, body: () => void): void {
  const missing = programs.filter((p) => p.path === undefined)
  if (missing.length === 0) {
    describe(name, body)
    return
  }
  const why = missingMessage(missing)
  if (testingAll()) {
    describe(name, () => {
      it('has the programs it needs', () => {
        throw new Error(`${name} ${why}`)
      })
    })
    return
  }
  describe.skip(`${name} [skipped: ${why}]`, body)
}
