import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const script = new URL('./test-summary.mjs', import.meta.url).pathname
const runStart = Date.now() - 60_000

interface Fixture {
  /** Per workspace: the test task's exit code (undefined: not in the run) and the report's tests. */
  workspaces: Record<
    string,
    {
      exitCode?: number
      tests?: Record<string, 'passed' | 'failed' | 'skipped'>
      /** Files beyond a.test.ts, as Vitest reports them (a file that failed to load has no tests). */
      files?: { name: string; status: 'passed' | 'failed'; message?: string; assertionResults: object[] }[]
      /** What tooling/failures-reporter.ts wrote: errors outside any test. */
      outside?: { file: string; suite?: string; message: string }[]
    }
  >
}

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'weft-summary-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** Lays out a repository with a turbo run summary and Vitest reports, then runs the summary on it. */
function summarize({ workspaces }: Fixture) {
  const tasks = []
  for (const [dir, { exitCode, tests, files = [], outside }] of Object.entries(workspaces)) {
    mkdirSync(join(root, dir), { recursive: true })
    writeFileSync(join(root, dir, 'vitest.config.ts'), '')
    if (exitCode !== undefined) {
      tasks.push({ task: 'test', directory: dir, execution: { startTime: runStart, exitCode } })
    }
    if (!tests) continue
    const results = Object.entries(tests).map(([fullName, status]) => {
      const [suite, title] = fullName.includes(' > ') ? fullName.split(' > ') : [undefined, fullName]
      return {
        fullName,
        title,
        ancestorTitles: suite ? [suite] : [],
        status,
        failureMessages: status === 'failed' ? ['AssertionError: expected 200 to be 201\n    at a.test.ts:3'] : [],
      }
    })
    const all = [...results, ...files.flatMap((file) => file.assertionResults as { status: string }[])]
    const report = {
      numPassedTests: all.filter((t) => t.status === 'passed').length,
      numFailedTests: all.filter((t) => t.status === 'failed').length,
      testResults: [
        { name: join(root, dir, 'a.test.ts'), status: 'passed', assertionResults: results },
        ...files.map((file) => ({ ...file, name: join(root, dir, file.name) })),
      ],
    }
    writeFileSync(join(root, dir, 'test-results.json'), JSON.stringify(report))
    if (outside) writeFileSync(join(root, dir, 'test-failures.json'), JSON.stringify(outside))
  }
  const grouped = (dir: string) => dir.startsWith('packages/') || dir.startsWith('apps/')
  const listed = ['packages/*', 'apps/*', ...Object.keys(workspaces).filter((dir) => !grouped(dir))]
  writeFileSync(join(root, 'pnpm-workspace.yaml'), `packages:\n${listed.map((dir) => `  - ${dir}\n`).join('')}`)
  mkdirSync(join(root, '.turbo', 'runs'), { recursive: true })
  const summary = { execution: { startTime: runStart }, tasks }
  writeFileSync(join(root, '.turbo', 'runs', 'run.json'), JSON.stringify(summary))
  const result = spawnSync(process.execPath, [script, root], { encoding: 'utf8' })
  return { code: result.status, out: result.stdout, lastLine: result.stdout.trim().split('\n').at(-1) }
}

const green = { exitCode: 0, tests: { 'adds up': 'passed', 'rounds down': 'passed' } } as const

describe('test-summary', () => {
  it('totals a green run and exits 0', () => {
    const result = summarize({ workspaces: { 'packages/a': green, 'apps/b': green } })
    expect(result.lastLine).toBe('4 passed, 0 failed, 0 skipped')
    expect(result.code).toBe(0)
  })

  it('names a failed test and exits non-zero', () => {
    const result = summarize({
      workspaces: { 'packages/a': green, 'apps/b': { exitCode: 1, tests: { 'creates a user': 'failed' } } },
    })
    expect(result.out).toContain('FAILED apps/b/a.test.ts > creates a user\n    AssertionError: expected 200 to be 201')
    expect(result.lastLine).toBe('2 passed, 1 failed, 0 skipped')
    expect(result.code).toBe(1)
  })

  it('counts a workspace whose task failed before writing a report', () => {
    const result = summarize({ workspaces: { 'packages/a': green, docker: { exitCode: 1 } } })
    expect(result.out).toContain('docker: no test report')
    expect(result.lastLine).toBe('2 passed, 1 failed, 0 skipped')
    expect(result.code).toBe(1)
  })

  it('counts a task that failed although its report shows every test passed', () => {
    const result = summarize({ workspaces: { 'packages/a': { ...green, exitCode: 1 } } })
    expect(result.out).toContain('packages/a: its test task exited with 1')
    expect(result.code).toBe(1)
  })

  it('counts a workspace with tests that the run left out', () => {
    const result = summarize({ workspaces: { 'packages/a': green, 'packages/c': { tests: green.tests } } })
    expect(result.out).toContain('packages/c: its tests were not part of the run')
    expect(result.code).toBe(1)
  })

  it('counts every workspace pnpm-workspace.yaml names, wherever it lives', () => {
    const failing = { exitCode: 1, tests: { 'keeps the limit': 'failed' } } as const
    const result = summarize({ workspaces: { 'packages/a': green, 'tooling/scale-out': failing } })
    expect(result.out).toContain('tooling/scale-out/a.test.ts > keeps the limit')
    expect(result.lastLine).toBe('2 passed, 1 failed, 0 skipped')
    expect(result.code).toBe(1)
  })

  it('counts a report older than the run as missing', () => {
    mkdirSync(join(root, 'packages/a'), { recursive: true })
    const stale = summarizeWithStaleReport()
    expect(stale.out).toContain('packages/a: its test report is older than the run')
    expect(stale.code).toBe(1)
  })

  it('counts skipped tests, names their suites, and gives one command for what they need', () => {
    const chromium =
      'UI in Chromium [skipped: needs Chromium, not found on this machine: install with `apt-get install --no-install-recommends chromium`]'
    const haproxy =
      'behind HAProxy [skipped: needs HAProxy, not found on this machine: install with `apt-get install --no-install-recommends haproxy`]'
    const result = summarize({
      workspaces: {
        'apps/a': {
          exitCode: 0,
          tests: { 'adds up': 'passed', [`${chromium} > logs in`]: 'skipped', [`${chromium} > logs out`]: 'skipped' },
        },
        'apps/b': { exitCode: 0, tests: { 'adds up': 'passed', [`${haproxy} > balances`]: 'skipped' } },
      },
    })
    expect(result.out).toContain(`SKIPPED apps/a/a.test.ts > ${chromium} (2 tests)`)
    expect(result.out).toContain(`SKIPPED apps/b/a.test.ts > ${haproxy} (1 test)`)
    expect(result.out).toContain('To run the skipped tests: apt-get install --no-install-recommends chromium haproxy')
    expect(result.lastLine).toBe('2 passed, 0 failed, 3 skipped')
    expect(result.code).toBe(0)
  })

  it('names a file that failed before running a test, with its first error line', () => {
    const broken = {
      name: 'b.test.ts',
      status: 'failed',
      message: "Cannot find module './gone.js' imported from b.test.ts\n    at resolve",
      assertionResults: [],
    } as const
    const result = summarize({ workspaces: { 'apps/b': { exitCode: 1, tests: green.tests, files: [broken] } } })
    expect(result.out).toContain(
      "FAILED apps/b/b.test.ts (before or outside its tests): Cannot find module './gone.js'",
    )
    expect(result.lastLine).toBe('2 passed, 1 failed, 0 skipped')
    expect(result.code).toBe(1)
  })

  it('names a file whose hook failed, its tests skipped', () => {
    const hooked = {
      name: 'c.test.ts',
      status: 'failed',
      message: '',
      assertionResults: [
        { fullName: 'x', title: 'x', ancestorTitles: ['suite'], status: 'skipped', failureMessages: [] },
      ],
    } as const
    const outside = [{ file: 'c.test.ts', suite: 'Swagger UI', message: 'Error: Hook timed out in 60000ms' }]
    const result = summarize({
      workspaces: { 'apps/b': { exitCode: 1, tests: green.tests, files: [hooked], outside } },
    })
    expect(result.out).toContain(
      'FAILED apps/b/c.test.ts (before or outside its tests): Error: Hook timed out in 60000ms in a hook of "Swagger UI"',
    )
    expect(result.lastLine).toBe('2 passed, 1 failed, 1 skipped')
    expect(result.code).toBe(1)
  })

  it('names an unhandled error of a workspace whose tests all passed', () => {
    const outside = [{ file: '', message: 'unhandled Error: read ECONNRESET' }]
    const result = summarize({ workspaces: { 'apps/b': { ...green, exitCode: 1, outside } } })
    expect(result.out).toContain('apps/b: unhandled Error: read ECONNRESET')
    expect(result.lastLine).toBe('2 passed, 1 failed, 0 skipped')
    expect(result.code).toBe(1)
  })

  it('fails when there is no test run at all', () => {
    const result = spawnSync(process.execPath, [script, root], { encoding: 'utf8' })
    expect(result.stdout).toContain('no turbo test run found')
    expect(result.status).toBe(1)
  })
})

/** A green run whose only report predates the run's start (left over from an earlier run). */
function summarizeWithStaleReport() {
  const first = summarize({ workspaces: { 'packages/a': green } })
  expect(first.code).toBe(0)
  const old = new Date(runStart - 3_600_000)
  utimesSync(join(root, 'packages/a/test-results.json'), old, old)
  const result = spawnSync(process.execPath, [script, root], { encoding: 'utf8' })
  return { code: result.status, out: result.stdout }
}
