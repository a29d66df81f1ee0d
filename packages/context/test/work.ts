/** The size work-bound tests start from: Node's default limit for all headers of a request. */
export const HEADER_LIMIT = 16 * 1024

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

/** Fastest times of `reps` interleaved runs of each, in ms: a pause of the machine hits both alike. */
async function fastestPair(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  reps: number,
): Promise<[number, number]> {
  let bestA = Number.POSITIVE_INFINITY
  let bestB = Number.POSITIVE_INFINITY
  for (let i = 0; i < reps; i++) {
    bestA = Math.min(bestA, await timed(a))
    bestB = Math.min(bestB, await timed(b))
  }
  return [bestA, bestB]
}

/**
 * How much longer `run` takes on an input four times as large: `make(4n)` against `make(n)`,
 * the fastest of several runs each. Linear work gives about 4 (less while fixed costs dominate);
 * quadratic work 16 or more, so tests allow at most 8. A ratio of 8 or more is measured again
 * (up to three times in all, the smallest kept): garbage collection or a busy machine can slow
 * one series, never every one.
 */
export async function growth(
  make: (size: number) => string,
  run: (input: string) => Promise<unknown>,
  size = HEADER_LIMIT,
  reps = 5,
): Promise<number> {
  const small = make(size)
  const large = make(size * 4)
  await run(small) // warm up
  let ratio = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < 3 && ratio >= 8; attempt++) {
    const [a, b] = await fastestPair(
      () => run(small),
      () => run(large),
      reps,
    )
    ratio = Math.min(ratio, b / Math.max(a, 0.05))
  }
  return ratio
}

/** `count` characters of `unit` repeated (cut to length). */
export function fill(unit: string, count: number): string {
  return unit.repeat(Math.ceil(count / unit.length)).slice(0, count)
}
