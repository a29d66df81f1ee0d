import { Bench } from 'tinybench'
import { median, pairedRatio } from '../stats.js'

/** One function under test; the first task of a suite is its baseline. */
export interface MicroTask {
  name: string
  fn: () => unknown
}

/** A micro-benchmark: a baseline and the alternatives measured against it. */
export interface MicroSuite {
  id: string
  title: string
  tasks: MicroTask[]
  /** Minimum ratio of the Weft task (the last one) to the baseline, when the issue sets one. */
  goal?: number
}

export interface MicroTaskResult {
  name: string
  /** Median over rounds of operations per second. */
  opsPerSec: number
  /** Median over rounds of this task's ops/s ÷ the baseline's in the same round. */
  ratio: number
  rounds: number[]
}

export interface MicroSuiteResult {
  id: string
  title: string
  baseline: string
  tasks: MicroTaskResult[]
  goal?: number
  goalMet?: boolean
  skipped?: string
}

export interface RoundBudget {
  rounds: number
  roundMs: number
  warmupMs: number
  smoke: boolean
}

/**
 * Warms every task up, then runs `rounds` short rounds; in each, every task runs once for
 * `roundMs`, the order alternating between rounds, so a noisy neighbour hits all tasks alike and
 * the per-round ratios stay comparable.
 */
export async function runSuite(suite: MicroSuite, budget: RoundBudget): Promise<MicroSuiteResult> {
  const benches = suite.tasks.map((task) => {
    const bench = new Bench({ time: budget.roundMs, warmupTime: budget.warmupMs, iterations: 10 })
    bench.add(task.name, task.fn)
    return { name: task.name, bench }
  })
  for (const { bench } of benches) await bench.warmup()
  const hz = new Map<string, number[]>(suite.tasks.map((task) => [task.name, []]))
  for (let round = 0; round < budget.rounds; round++) {
    const order = round % 2 === 0 ? benches : [...benches].reverse()
    for (const { name, bench } of order) {
      bench.reset()
      await bench.run()
      const result = bench.tasks[0]?.result
      if (result?.error) throw result.error
      hz.get(name)!.push(result?.hz ?? Number.NaN)
    }
  }
  const baselineName = suite.tasks[0]!.name
  const baseline = hz.get(baselineName)!
  const tasks = suite.tasks.map((task) => {
    const rounds = hz.get(task.name)!
    return { name: task.name, opsPerSec: median(rounds), ratio: pairedRatio(rounds, baseline), rounds }
  })
  const result: MicroSuiteResult = { id: suite.id, title: suite.title, baseline: baselineName, tasks }
  if (suite.goal !== undefined) {
    result.goal = suite.goal
    if (!budget.smoke) result.goalMet = tasks[tasks.length - 1]!.ratio >= suite.goal
  }
  return result
}
