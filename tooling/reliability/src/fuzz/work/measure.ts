import { cpuTime } from '@weft/tooling/work-growth'

/**
 * Measuring how handling time grows with input size, robust to a busy machine: CPU time of this
 * process (user + system, so other processes' load counts only through shared caches), the fastest of
 * several interleaved runs of each size (a pause or a collection slows one run, not all), and a ratio
 * over the limit measured again before it is believed.
 */

/** Twice the bytes may cost at most this many times the time; linear work gives 2 or less. */
export const growthLimit = 2.5

export interface GrowthOptions {
  /** CPU milliseconds each size's calls may take per measurement (cheap sizes get more calls). */
  budgetMs?: number
  /** Fewest and most timed calls per size and measurement. */
  minCalls?: number
  maxCalls?: number
  /** Measurements in all when the ratio is over the limit (the smallest ratio is kept). */
  attempts?: number
  limit?: number
}

/** What a growth measurement found. */
export interface Growth {
  /** Fastest CPU milliseconds of one call at each size (of the measurement kept). */
  cpuMs: number[]
  /**
   * How much each doubling of the input multiplies the time, over the whole span: the smallest size's
   * time to the largest's, per doubling (the geometric mean of the steps).
   */
  ratio: number
  /** Measurements made: more than one when the first ratio was over the limit. */
  attempts: number
}

/**
 * CPU time below which a call counts as this much: under a millisecond, a collection or a cache
 * miss moves one step by 3x (0.37 ms, then 0.55, then 1.84 ms for linear work on a busy machine),
 * while the work this oracle looks for costs tens of milliseconds and more at these sizes.
 */
const floorMs = 1

/**
 * Growth per doubling over the whole span, not the worst single step: one step can jump where the
 * heap grows, every step jumps for super-linear work.
 */
const spanRatio = (times: readonly number[]) => {
  const first = Math.max(times[0] ?? floorMs, floorMs)
  const last = Math.max(times[times.length - 1] ?? floorMs, floorMs)
  return (last / first) ** (1 / Math.max(times.length - 1, 1))
}

/**
 * How the CPU time of `calls` (one per size, each size twice the bytes of the one before) grows. Each
 * call runs once first (JIT, caches); then the sizes take turns, one call each, and each size's fastest
 * call counts: the fastest call is the work itself, without the collections and preemptions that land on
 * others. Cheap sizes get more calls (`budgetMs` of CPU each, within `minCalls`…`maxCalls`). A ratio over
 * `limit` is measured again with more calls, up to `attempts` times in all, and the smallest kept.
 */
export async function measureGrowth(
  calls: readonly (() => Promise<unknown>)[],
  options: GrowthOptions = {},
): Promise<Growth> {
  const { budgetMs = 20, minCalls = 3, maxCalls = 40, attempts = 3, limit = growthLimit } = options
  const warm: number[] = []
  for (const call of calls) warm.push(await cpuTime(call))
  const turns = Math.max(minCalls, Math.min(maxCalls, Math.ceil(budgetMs / Math.max(...warm, 0.02))))
  let best: Growth | undefined
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const fastest = calls.map(() => Number.POSITIVE_INFINITY)
    // A suspect is measured again with more calls per size: the fastest of three calls of a few
    // milliseconds still carries a collection now and then, the fastest of twenty seldom does.
    const timedCalls = attempt === 1 ? turns : Math.max(turns * 3 * (attempt - 1), minCalls * 6)
    for (let turn = 0; turn < timedCalls; turn++) {
      for (let step = 0; step < calls.length; step++) {
        // Each turn starts at another size, so a slow spell of the machine does not always hit the same one.
        const i = (step + turn) % calls.length
        const call = calls[i] as () => Promise<unknown>
        fastest[i] = Math.min(fastest[i] as number, await cpuTime(call))
      }
    }
    const ratio = spanRatio(fastest)
    if (!best || ratio < best.ratio) best = { cpuMs: fastest, ratio, attempts: attempt }
    best.attempts = attempt
    if (best.ratio <= limit) break
  }
  return best as Growth
}
