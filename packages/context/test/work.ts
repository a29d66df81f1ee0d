/** The size work-bound tests start from: Node's default limit for all headers of a request. */
export const HEADER_LIMIT = 16 * 1024

/** Fastest of `reps` runs of `run`, in milliseconds (the minimum is what noise cannot inflate). */
async function fastest(run: () => Promise<unknown>, reps: number): Promise<number> {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < reps; i++) {
    const start = performance.now()
    await run()
    best = Math.min(best, performance.now() - start)
  }
  return best
}

/**
 * How much longer `run` takes on an input four times as large: `make(4n)` against `make(n)`,
 * the fastest of several runs each. Linear work gives about 4 (less while fixed costs dominate);
 * quadratic work 16 or more, so tests allow at most 8.
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
  const a = await fastest(() => run(small), reps)
  const b = await fastest(() => run(large), reps)
  return b / Math.max(a, 0.05)
}

/** `count` characters of `unit` repeated (cut to length). */
export function fill(unit: string, count: number): string {
  return unit.repeat(Math.ceil(count / unit.length)).slice(0, count)
}
