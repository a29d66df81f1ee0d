// Runs the in-repo micro-benchmarks (those the issue lists that no package measures itself: the
// pagination parse + setNextCursor and query-binding ones live in their packages' benches) and
// writes their results as JSON to the path in BENCH_MICRO_OUT. Each suite loads on its own, so one
// package that has not landed does not stop the others.
import { writeFileSync } from 'node:fs'
import { benchSettings } from '../settings.js'
import { type MicroSuite, type MicroSuiteResult, runSuite } from './rounds.js'

const suites: { id: string; title: string; load: () => Promise<MicroSuite> }[] = [
  {
    id: 'binding-json',
    title: 'bind().json() vs Fastify JSON body + schema',
    load: async () => (await import('./json-body.js')).jsonBodySuite(),
  },
]

const settings = benchSettings()
const budget = {
  rounds: settings.microRounds,
  roundMs: settings.microRoundMs,
  warmupMs: settings.microWarmupMs,
  smoke: settings.smoke,
}
const results: MicroSuiteResult[] = []
for (const suite of suites) {
  try {
    const result = await runSuite(await suite.load(), budget)
    results.push(result)
    for (const task of result.tasks) {
      console.log(`  ${suite.id} ${task.name}: ${Math.round(task.opsPerSec)} ops/s (x${task.ratio.toFixed(2)})`)
    }
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0] ?? 'failed'
    console.log(`  ${suite.id} skipped: ${reason}`)
    results.push({ id: suite.id, title: suite.title, baseline: '', tasks: [], skipped: reason })
  }
}
const out = process.env.BENCH_MICRO_OUT
if (out) writeFileSync(out, JSON.stringify(results, null, 2))
