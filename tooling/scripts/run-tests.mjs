#!/usr/bin/env node
// `pnpm test` and `pnpm test:all` (`--all`): turbo runs every workspace's tests, then, whatever turbo did:
// - `pnpm test:summary`: passed, failed and skipped, every failed file named, what the skipped tests need;
// - a check that the run left nothing behind: no process it started (each carries WEFT_TEST_RUN=<this run>
//   in its environment, Linux's /proc tells) and no new `weft-*` folder in the temp folder.
// `--all` (CI) sets WEFT_TEST_ALL=1: tests whose programs are missing fail instead of being skipped
// (tooling/tiers.ts), and anything left behind fails the run. Other arguments go to turbo (`--filter ...`).
import { spawnSync } from 'node:child_process'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { processesMarked, tempEntries } from './leftovers.mjs'

const all = process.argv.includes('--all')
const turboArgs = process.argv.slice(2).filter((arg) => arg !== '--all')
const runId = `${process.pid}-${Date.now()}`
const marker = `WEFT_TEST_RUN=${runId}`
// Two workspaces at once on two cores (each with one Vitest worker per two cores: tooling/vitest.shared.ts).
const concurrency = Math.max(1, Math.min(3, availableParallelism()))
const summaryScript = new URL('./test-summary.mjs', import.meta.url).pathname

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const before = tempEntries()
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', WEFT_TEST_RUN: runId }
if (all) env.WEFT_TEST_ALL = '1'
const turbo = spawnSync(
  'turbo',
  ['run', 'test', `--concurrency=${concurrency}`, '--continue', '--summarize', ...turboArgs],
  { stdio: 'inherit', env },
)
if (turbo.error) console.error(`could not run turbo: ${turbo.error.message}`)

console.log('\n=== test summary')
const summary = spawnSync(process.execPath, [summaryScript], { stdio: 'inherit' })

// Servers stopping in the last file's afterAll may need a moment; then whatever is left is a leftover.
let leftovers = processesMarked(marker)
for (let waited = 0; leftovers.length > 0 && waited < 10_000; waited += 500) {
  await sleep(500)
  leftovers = processesMarked(marker)
}
const newFolders = [...tempEntries()].filter((name) => !before.has(name))
const leftBehind = leftovers.length > 0 || newFolders.length > 0
if (leftBehind) {
  console.log(`\n=== left behind by the tests (${all ? 'fails pnpm test:all' : 'pnpm test:all fails on this'})`)
  for (const { pid, command } of leftovers) console.log(`  process ${pid}: ${command.slice(0, 200)}`)
  for (const name of newFolders) console.log(`  folder ${join(tmpdir(), name)}`)
  // Stop the processes, so a red run does not also leave the machine busy; the folders stay for a look.
  for (const { pid } of leftovers) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
} else {
  console.log('\nnothing left behind: no process of this run, no new weft-* folder in the temp folder')
}

const failed = turbo.status !== 0 || summary.status !== 0 || (all && leftBehind)
process.exit(failed ? 1 : 0)
