/**
 * Parses a whole decimal string (`42`, `-3`, `+7`); anything else (`10abc`, `1e3`, `1.5`, `''`)
 * gives `NaN`. Values beyond `Number.MAX_SAFE_INTEGER` saturate. Hand-written because
 * `Number()`/`parseInt` accept forms the spec rejects, and this runs on every request.
 */
export function parseWholeNumber(text: string): number {
  const length = text.length
  let i = 0
  let sign = 1
  const first = text.charCodeAt(0)
  if (first === 45 /* - */ || first === 43 /* + */) {
    sign = first === 45 ? -1 : 1
    i = 1
  }
  if (i >= length) return Number.NaN
  let value = 0
  for (; i < length; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return Number.NaN
    value = value * 10 + digit
  }
  return sign * Math.min(value, Number.MAX_SAFE_INTEGER)
}
