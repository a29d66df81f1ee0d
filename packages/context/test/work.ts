import { measureGrowth } from '@weft/tooling/work-growth'

export { LINEAR_BOUND } from '@weft/tooling/work-growth'

/** The size work-bound tests start from: Node's default limit for all headers of a request. */
export const HEADER_LIMIT = 16 * 1024

/**
 * How much more CPU time `run` takes on an input eight times as large, `make(8n)` against
 * `make(n)` (see @weft/tooling/work-growth). Tests allow at most `LINEAR_BOUND`.
 */
export async function growth(
  make: (size: number) => string,
  run: (input: string) => Promise<unknown>,
  size = HEADER_LIMIT,
): Promise<number> {
  const small = make(size)
  const large = make(size * 8)
  const measured = await measureGrowth(
    () => run(small),
    () => run(large),
  )
  return measured.ratio
}

/** `count` characters of `unit` repeated (cut to length). */
export function fill(unit: string, count: number): string {
  return unit.repeat(Math.ceil(count / unit.length)).slice(0, count)
}
