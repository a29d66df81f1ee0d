import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { full, modeName } from '../src/mode.js'
import { renderMarkdown } from '../src/report/markdown.js'
import { mergeFigures, type ReliabilityReport } from '../src/report/merge.js'

const benchDir = new URL('../../../bench/', import.meta.url).pathname

/**
 * Gives every test file a folder for its figures and, after the run, merges them. The full form writes
 * `bench/reliability.json` and `bench/RELIABILITY.md`; the shortened form (CI) leaves them alone unless
 * `RELIABILITY_WRITE_FIGURES=1`. With `RELIABILITY_MERGE=1` the sections this run did not produce are kept
 * from the existing `bench/reliability.json`.
 */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-reliability-figures-'))
  project.provide('reliabilityFiguresDir', dir)
  return () => {
    try {
      const report = mergeFigures(dir, modeName)
      if (full || process.env.RELIABILITY_WRITE_FIGURES === '1') {
        mkdirSync(benchDir, { recursive: true })
        const previous = join(benchDir, 'reliability.json')
        if (process.env.RELIABILITY_MERGE === '1' && existsSync(previous)) {
          // A partial run (one test file) keeps the sections of the last full run it did not redo.
          const old = JSON.parse(readFileSync(previous, 'utf8')) as ReliabilityReport
          const redone = Object.keys(report.sections).join(', ')
          report.mode = `${old.mode} run of ${old.generated_at}; ${redone} redone in a ${modeName} run`
          for (const [name, section] of Object.entries(old.sections)) {
            report.sections[name] = { ...section, ...report.sections[name] }
          }
        }
        writeFileSync(join(benchDir, 'reliability.json'), `${JSON.stringify(report, null, 2)}\n`)
        writeFileSync(join(benchDir, 'RELIABILITY.md'), renderMarkdown(report))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
