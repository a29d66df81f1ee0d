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
  const ratios = candidate.map((value, index) => value / (baseline[index] ?? Number.NaN))
  return median(ratios.filter((ratio) => Number.isFinite(ratio)))
}
