import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'

/** One error that happened outside any test: in a file's import, a suite's hook, or unhandled. */
export interface OutsideFailure {
  /** The test file, relative to the workspace; empty for an unhandled error. */
  file: string
  /** The suite whose hook failed, when it was one. */
  suite?: string
  /** The error's first line (`Error: Hook timed out in 60000ms`). */
  message: string
}

/** Where the reporter writes, next to Vitest's `test-results.json`. */
export const outsideFailuresFile = 'test-failures.json'

const firstLine = (error: { name?: string; message?: string }) =>
  `${error.name ?? 'Error'}: ${(error.message ?? '').split('\n')[0]}`

/**
 * Vitest's JSON report keeps no error that happened outside a test (a failing `beforeAll`: its tests are
 * merely "skipped"). This reporter writes those to `test-failures.json`, for `pnpm test:summary` to name.
 */
export default class OutsideFailuresReporter implements Reporter {
  private root = process.cwd()

  onInit(vitest: { config: { root: string } }) {
    this.root = vitest.config.root
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ name?: string; message?: string }>) {
    const failures: OutsideFailure[] = []
    for (const module of modules) {
      const file = module.moduleId.replace(`${this.root}/`, '')
      for (const error of module.errors()) failures.push({ file, message: firstLine(error) })
      for (const suite of module.children.allSuites()) {
        for (const error of suite.errors()) failures.push({ file, suite: suite.fullName, message: firstLine(error) })
      }
    }
    for (const error of unhandled) failures.push({ file: '', message: `unhandled ${firstLine(error)}` })
    writeFileSync(join(this.root, outsideFailuresFile), `${JSON.stringify(failures, null, 2)}\n`)
  }
}
