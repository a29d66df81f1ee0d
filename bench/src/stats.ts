/** The median of a non-empty list (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Rounds to a number of significant decimals for reports. */
export function round(value: number, decimals = 2): number {
  if (!Number.isFinite(value)) return value
  const factor = 10 ** decimals
  return Math.round(value * factor) / factor
}

/**
 * The ratio of a candidate to its baseline over paired rounds: the median of the per-round ratios,
 * so drift of a shared, noisy machine between rounds cancels out.
 */
export function pairedRatio(candidate: readonly number[], baseline: readonly number[]): number {
  return median(roundRatios(candidate, baseline))
}

/** The per-round ratios of a candidate to its baseline (rounds without a finite ratio left out). */
export function roundRatios(candidate: readonly number[], baseline: readonly number[]): number[] {
  const ratios = candidate.map((value, index) => value / (baseline[index] ?? Number.NaN))
  return ratios.filter((ratio) => Number.isFinite(ratio))
}

/** The first and third quartiles (the middle half of the values lies between them). */
export function quartiles(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b)
  const lower = sorted.slice(0, sorted.length >> 1)
  const upper = sorted.slice((sorted.length + 1) >> 1)
  return sorted.length < 2 ? [sorted[0] ?? Number.NaN, sorted[0] ?? Number.NaN] : [median(lower), median(upper)]
}
