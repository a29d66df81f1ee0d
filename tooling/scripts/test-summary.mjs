#!/usr/bin/env node
// Totals the last `pnpm test` run into one closing line, `N passed, N failed`, which CI reads, and
// exits non-zero when anything failed. Two witnesses are read, because either alone can lie:
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
const problems = []
const fail = (message, count = 1) => {
  problems.push(message)
  failed += count
}

const run = lastTestRun()
if (!run) fail('no turbo test run found (.turbo/runs): run `pnpm test` first')
const tasks = new Map((run?.tasks ?? []).filter((t) => t.task === 'test').map((t) => [t.directory, t]))

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
  // A file that failed to load has no tests in the counts: count it as a failure.
  const brokenFiles = report.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  )
  const failedHere = report.numFailedTests + brokenFiles.length
  passed += report.numPassedTests
  failed += failedHere
  // Name what failed, so a red CI log says where to look without re-running anything.
  for (const file of report.testResults) {
    const where = file.name.replace(root, '')
    if (file.assertionResults.length === 0 && file.status === 'failed') {
      problems.push(`FAILED TO LOAD ${where}: ${(file.message ?? '').split('\n')[0]}`)
    }
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue
      problems.push(`FAILED ${where} > ${test.fullName}\n    ${(test.failureMessages?.[0] ?? '').split('\n')[0]}`)
    }
  }
  // The task failed although every test passed (a type error, an unhandled error, a crash at teardown).
  if (exitCode !== undefined && exitCode !== 0 && failedHere === 0) {
    fail(`${workspace}: its test task exited with ${exitCode} although its report shows no failed test`)
  }
  console.error(`${workspace}: ${report.numPassedTests} passed, ${failedHere} failed`)
}

for (const problem of problems) console.log(`  ${problem}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
