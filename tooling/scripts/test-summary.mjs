#!/usr/bin/env node
// Totals the last `pnpm test` run into one closing line, `N passed, N failed, N skipped`, which CI reads,
// and exits non-zero when anything failed. Every failed file is named with its first error line (a file
// that failed before running a test too); skipped tests are listed by suite, with what they need. Two witnesses are read, because either alone can lie:
// - turbo's run summary (`.turbo/runs/*.json`, written by `turbo run test --summarize`): the exit code
//   of every workspace's test task, so a task that crashed before writing its report still counts;
// - each workspace's Vitest JSON report (`test-results.json`): the test counts and what failed.
// A workspace with tests that the run skipped, whose task failed, or whose report is missing or older
// than its task counts as failed and is named.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = process.argv[2] ?? new URL('../..', import.meta.url).pathname
/**
 * The workspace folders named in `pnpm-workspace.yaml` (`dir` or `dir/*` entries), so a workspace added
 * there is counted without anyone remembering to add it here.
 */
function workspaceFolders() {
  const manifestPath = join(root, 'pnpm-workspace.yaml')
  if (!existsSync(manifestPath)) {
    fail('no pnpm-workspace.yaml: cannot tell which workspaces should have run')
    return []
  }
  const manifest = readFileSync(manifestPath, 'utf8')
  const entries = []
  let inPackages = false
  for (const line of manifest.split('\n')) {
    if (/^\S/.test(line)) inPackages = line.startsWith('packages:')
    const entry = inPackages && line.match(/^\s+-\s+['"]?([^'"#\s]+)/)
    if (entry) entries.push(entry[1])
  }
  return entries.flatMap((entry) => {
    if (!entry.endsWith('/*')) return [entry]
    const parent = entry.slice(0, -2)
    if (!existsSync(join(root, parent))) return []
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((child) => child.isDirectory())
      .map((child) => `${parent}/${child.name}`)
  })
}

/** Every workspace folder that has Vitest tests. */
function workspacesWithTests() {
  return workspaceFolders().filter((dir) => existsSync(join(root, dir, 'vitest.config.ts')))
}

/** The newest turbo run summary of a `test` run, or undefined when there is none. */
function lastTestRun() {
  const runs = join(root, '.turbo', 'runs')
  if (!existsSync(runs)) return undefined
  const summaries = readdirSync(runs)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(runs, file), 'utf8')))
    .filter((summary) => summary.tasks?.some((task) => task.task === 'test'))
    .sort((a, b) => b.execution.startTime - a.execution.startTime)
  return summaries[0]
}

let passed = 0
let failed = 0
let skipped = 0
const problems = []
const skips = []
const fail = (message, count = 1) => {
  problems.push(message)
  failed += count
}
const firstLine = (text) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '') ?? ''

const run = lastTestRun()
if (!run) fail('no turbo test run found (.turbo/runs): run `pnpm test` first')
const tasks = new Map((run?.tasks ?? []).filter((t) => t.task === 'test').map((t) => [t.directory, t]))

/**
 * One line per failed file: its first failed test and that test's first error line, or, for a file that
 * failed outside any test (an import error, a failing hook), the file's own first error line.
 */
function failedFile(where, file, outside) {
  const failedTests = file.assertionResults.filter((test) => test.status === 'failed')
  const first = failedTests[0]
  if (!first) {
    const hook = outside[0]?.suite ? ` in a hook of "${outside[0].suite}"` : ''
    const why =
      (outside[0] && `${outside[0].message}${hook}`) ||
      firstLine(file.message) ||
      'it failed outside any test (a hook or the file itself): see its log'
    return `FAILED ${where} (before or outside its tests): ${why}`
  }
  const more = failedTests.length > 1 ? ` (and ${failedTests.length - 1} more failed test(s) in this file)` : ''
  return `FAILED ${where} > ${first.fullName}${more}\n    ${firstLine(first.failureMessages?.[0])}`
}

/** Skipped tests of one file, by suite: tests skipped for a missing program say so in their suite's name. */
function skippedFile(where, file) {
  const bySuite = new Map()
  for (const test of file.assertionResults) {
    if (!['skipped', 'pending', 'todo'].includes(test.status)) continue
    const suite = test.ancestorTitles?.[0] ?? test.title
    bySuite.set(suite, (bySuite.get(suite) ?? 0) + 1)
  }
  return [...bySuite].map(([suite, count]) => `SKIPPED ${where} > ${suite} (${count} test${count === 1 ? '' : 's'})`)
}

for (const workspace of workspacesWithTests()) {
  const task = tasks.get(workspace)
  if (run && !task) {
    fail(`${workspace}: its tests were not part of the run`)
    continue
  }
  const reportPath = join(root, workspace, 'test-results.json')
  const exitCode = task?.execution?.exitCode
  if (!existsSync(reportPath)) {
    fail(`${workspace}: no test report (its test task exited with ${exitCode ?? 'no code'} before writing one)`)
    continue
  }
  if (task && statSync(reportPath).mtimeMs < task.execution.startTime) {
    fail(`${workspace}: its test report is older than the run (a stale file; the task exited with ${exitCode})`)
    continue
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8'))
  // Errors outside any test (tooling/failures-reporter.ts), when this run wrote them.
  const outsidePath = join(root, workspace, 'test-failures.json')
  const fresh = existsSync(outsidePath) && (!task || statSync(outsidePath).mtimeMs >= task.execution.startTime)
  const outside = fresh ? JSON.parse(readFileSync(outsidePath, 'utf8')) : []
  let failedHere = 0
  let skippedHere = 0
  // Name what failed, so a red CI log says where to look without re-running anything.
  for (const file of report.testResults) {
    const where = file.name.replace(root, '').replace(/^\//, '')
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed').length
    // A file that failed outside its tests (an import error, a hook) counts as one failure.
    const failedHereNow = file.status === 'failed' ? Math.max(failedTests, 1) : failedTests
    const outsideHere = outside.filter((failure) => failure.file !== '' && file.name.endsWith(`/${failure.file}`))
    if (failedHereNow > 0) problems.push(failedFile(where, file, outsideHere))
    failedHere += failedHereNow
    const skippedTests = file.assertionResults.filter((test) => ['skipped', 'pending', 'todo'].includes(test.status))
    skippedHere += skippedTests.length
    if (skippedTests.length > 0) skips.push(...skippedFile(where, file))
  }
  passed += report.numPassedTests
  failed += failedHere
  skipped += skippedHere
  // The task failed although every test passed (a type error, an unhandled error, a crash at teardown).
  const unhandled = outside.filter((failure) => failure.file === '')
  for (const failure of unhandled) fail(`${workspace}: ${failure.message}`)
  if (exitCode !== undefined && exitCode !== 0 && failedHere === 0 && unhandled.length === 0) {
    fail(`${workspace}: its test task exited with ${exitCode} although its report shows no failed test`)
  }
  console.error(`${workspace}: ${report.numPassedTests} passed, ${failedHere} failed, ${skippedHere} skipped`)
}

for (const line of skips) console.log(`  ${line}`)
// One command for every program the skipped tests asked for (see tooling/tiers.ts for the wording).
const packages = new Set(
  skips.flatMap(
    (line) => line.match(/install with `apt-get install --no-install-recommends ([^`]+)`/)?.[1].split(' ') ?? [],
  ),
)
if (packages.size > 0) {
  console.log(`  To run the skipped tests: apt-get install --no-install-recommends ${[...packages].join(' ')}`)
}
for (const problem of problems) console.log(`  ${problem}`)
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
