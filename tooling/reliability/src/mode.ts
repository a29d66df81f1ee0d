/**
 * The suite's two forms. `pnpm test` runs the shortened one (CI, well under three minutes on two
 * cores); `RELIABILITY_FULL=1` (`pnpm test:reliability`) runs the full one the issue specifies.
 * Both run the same code paths; only the budgets differ.
 */
export const full = process.env.RELIABILITY_FULL === '1'

/** How much of each kind of work a run does. */
export interface Budget {
  /** Generated inputs per fuzz target (split across the input families). */
  fuzzInputs: number
  /** Growth shapes the work oracle measures per surface (each header, the query string, each body type) and target. */
  workShapes: number
  /** Seconds of load after the warm-up, per API. */
  loadSeconds: number
  /** Least seconds of warm-up load (more until two major GCs have handed memory back; see `sustainedLoad`). */
  warmupSeconds: number
  /** Concurrent connections of the load. */
  connections: number
  /** Seconds the database stays down in the outage scenario. */
  outageSeconds: number
  /** Run every fault scenario on both APIs (full), or one short outage cycle on API A (shortened). */
  allFaultScenarios: boolean
}

export const budget: Budget = full
  ? {
      fuzzInputs: 100_000,
      workShapes: 100,
      loadSeconds: 60,
      warmupSeconds: 10,
      connections: 100,
      outageSeconds: 5,
      allFaultScenarios: true,
    }
  : {
      fuzzInputs: 800,
      workShapes: 8,
      loadSeconds: 8,
      // The full form's warm-up: the heap needs about ten seconds of this load to reach its working size.
      warmupSeconds: 10,
      connections: 100,
      outageSeconds: 3,
      allFaultScenarios: false,
    }

// A fuzz-only run of a size between the two forms (e.g. to measure before and after a fix).
if (process.env.RELIABILITY_FUZZ_INPUTS) budget.fuzzInputs = Number(process.env.RELIABILITY_FUZZ_INPUTS)
if (process.env.RELIABILITY_WORK_SHAPES) budget.workShapes = Number(process.env.RELIABILITY_WORK_SHAPES)

/** `full` or `short` (with the fuzz size when it was set apart), for the figures. */
export const modeName = `${full ? 'full' : 'short'}${process.env.RELIABILITY_FUZZ_INPUTS ? `, fuzz ${budget.fuzzInputs} inputs per target` : ''}`
