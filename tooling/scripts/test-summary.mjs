#!/usr/bin/env node
// Totals the Vitest JSON reports of every workspace with tests into one closing line,
// `N passed, N failed`, which CI reads; each failed test is named on the lines before it.
// A workspace with tests but no report counts as a failure.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('../..', import.meta.url).pathname
const workspaces = [
  ...['packages', 'apps'].flatMap((group) => readdirSync(join(root, group)).map((name) => `${group}/${name}`)),
  'docker',
  'bench',
  'tooling/reliability',
]

let passed = 0
let failed = 0
for (const workspace of workspaces) {
  const dir = join(root, workspace)
  if (!existsSync(join(dir, 'vitest.config.ts'))) continue
  const report = join(dir, 'test-results.json')
  if (!existsSync(report)) {
    console.error(`${workspace}: no test report (its tests did not run to the end)`)
    failed++
    continue
  }
  const result = JSON.parse(readFileSync(report, 'utf8'))
  // A file that failed to load has no tests in the counts: count it as a failure.
  const brokenFiles = result.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  )
  passed += result.numPassedTests
  // Name what failed, so a red CI log says where to look without re-running anything.
  for (const file of result.testResults) {
    const where = file.name.replace(`${root}`, '')
    if (file.assertionResults.length === 0 && file.status === 'failed') {
      console.log(`  FAILED TO LOAD ${where}: ${(file.message ?? '').split('\n')[0]}`)
    }
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue
      console.log(`  FAILED ${where} > ${test.fullName}`)
      console.log(`    ${(test.failureMessages?.[0] ?? '').split('\n')[0]}`)
    }
  }
  failed += result.numFailedTests + brokenFiles.length
  console.error(`${workspace}: ${result.numPassedTests} passed, ${result.numFailedTests + brokenFiles.length} failed`)
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
