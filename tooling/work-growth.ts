/**
 * How the work-bound tests tell linear from super-linear work on a busy machine.
 *
 * - CPU time of this process (`process.cpuUsage()`), not wall-clock time: when other test
 *   processes share the cores, a descheduled request does not look slow.
 * - Eight times the input: linear work costs about 8x, up to ~21x measured where the larger input
 *   first makes the garbage collector work (16 KB against 128 KB of query pairs: 0.5 ms, then
 *   9 ms; 9 ms, then 75 ms at 1 MB), while quadratic work costs 64x. The bound is half of that.
 * - The fastest of interleaved runs of each size, measured again (up to three times, the smallest
 *   ratio kept) when it crosses the bound: a garbage collection or a busy core can slow one series,
 *   a quadratic path slows every one.
 */

/** How much larger the second input is than the first. */
export const GROWTH_FACTOR = 8

/** The most a linear path may grow for {@link GROWTH_FACTOR} times the input. */
export const LINEAR_BOUND = 32

/** CPU milliseconds (user + system) this process spends on `run`. */
export async function cpuTime(run: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage()
  await run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/** The fastest of `reps` interleaved runs of each, in CPU ms: a pause of the machine hits both alike. */
async function fastestPair(
  small: () => Promise<unknown>,
  large: () => Promise<unknown>,
  reps: number,
): Promise<[number, number]> {
  let bestSmall = Number.POSITIVE_INFINITY
  let bestLarge = Number.POSITIVE_INFINITY
  for (let i = 0; i < reps; i++) {
    bestSmall = Math.min(bestSmall, await cpuTime(small))
    bestLarge = Math.min(bestLarge, await cpuTime(large))
  }
  return [bestSmall, bestLarge]
}

/** The figures of one growth measurement, for a test's assertion message. */
export interface Growth {
  ratio: number
  smallMs: number
  largeMs: number
}

/**
 * Time of `large` against `small` (an input {@link GROWTH_FACTOR} times larger), as measured above.
 * Times under `floorMs` count as `floorMs`, so that a fast path's timer noise is not a ratio.
 */
export async function measureGrowth(
  small: () => Promise<unknown>,
  large: () => Promise<unknown>,
  { reps = 5, floorMs = 0.5 }: { reps?: number; floorMs?: number } = {},
): Promise<Growth> {
  // both once first: the first run of a path pays for its compilation
  await small()
  await large()
  let best: Growth = { ratio: Number.POSITIVE_INFINITY, smallMs: 0, largeMs: 0 }
  for (let attempt = 0; attempt < 3 && best.ratio > LINEAR_BOUND; attempt++) {
    const [smallMs, largeMs] = await fastestPair(small, large, reps)
    const ratio = largeMs / Math.max(smallMs, floorMs)
    if (ratio < best.ratio) best = { ratio, smallMs, largeMs }
  }
  return best
}

/** A message naming the figures, for `expect(growth.ratio, describeGrowth(growth))`. */
export function describeGrowth({ ratio, smallMs, largeMs }: Growth): string {
  return `${GROWTH_FACTOR}x the input took ${ratio.toFixed(1)}x the CPU time (${smallMs.toFixed(2)} ms, then ${largeMs.toFixed(2)} ms)`
}
