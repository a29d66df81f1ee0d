import type { CtxBase } from './ctx-base.js'
import { RangeMalformedError, RangeNotSatisfiableError, RangeUnitError } from './errors.js'

/** Result of `c.range(size)` (Fiber: Range). */
export interface Range {
  /** The unit, always `'bytes'`. */
  type: string
  /** Inclusive byte ranges, in request order, ends clamped to `size - 1`. */
  ranges: { start: number; end: number }[]
}

/** Most ranges one header may ask for. */
export const MAX_RANGES = 16
const DIGITS = /^\d*$/

/**
 * The two numbers of one `first-last` element, spaces allowed around each; `undefined` when
 * malformed. By hand, not one regular expression: `\s*(\d*)\s*-` backtracks quadratically over a
 * long run of spaces (16 KB of them cost 0.3 s).
 */
function specBounds(spec: string): [string, string] | undefined {
  const dash = spec.indexOf('-')
  if (dash === -1) return undefined
  const first = spec.slice(0, dash).trim()
  const last = spec.slice(dash + 1).trim()
  return DIGITS.test(first) && DIGITS.test(last) ? [first, last] : undefined
}

/**
 * Parses a Range header against a resource of `size` bytes.
 *
 * Hand-written rather than `range-parser`: that library skips malformed elements and allows any
 * number of ranges, while weft treats any malformed element as a malformed header and caps the
 * count at 16. Unsatisfiable ranges are dropped; when none is left, the reply gets status 416 and
 * `Content-Range: bytes *\/size`, and a 416 error is thrown.
 */
export function parseRange(header: string, size: number): Range {
  const eq = header.indexOf('=')
  if (eq === -1) throw new RangeMalformedError()
  const unit = header.slice(0, eq).trim()
  if (unit.toLowerCase() !== 'bytes') throw new RangeUnitError(unit.slice(0, 32))
  // empty list elements (`bytes=,0-5`, `bytes= , 0-10`) are ignored, as RFC 9110 5.6.1.2 asks
  const specs = header
    .slice(eq + 1)
    .split(',')
    .filter((spec) => spec.trim() !== '')
  if (specs.length === 0 || specs.length > MAX_RANGES) throw new RangeMalformedError()
  const ranges: Range['ranges'] = []
  for (const spec of specs) {
    const bounds = specBounds(spec)
    if (bounds === undefined) throw new RangeMalformedError()
    const [first, last] = bounds
    if (first === '' && last === '') throw new RangeMalformedError()
    let start: number
    let end: number
    if (first === '') {
      const suffix = Number(last)
      start = Math.max(size - suffix, 0)
      end = size - 1
      if (suffix === 0) continue
    } else {
      start = Number(first)
      end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
      if (last !== '' && Number(last) < start) throw new RangeMalformedError()
    }
    if (start >= size || end < start) continue
    ranges.push({ start, end })
  }
  if (ranges.length === 0) throw new RangeNotSatisfiableError(size)
  return { type: 'bytes', ranges }
}

/** `c.range(size)`: parses the request's Range header (a missing header is malformed). */
export function range(c: CtxBase, size: number): Range {
  try {
    return parseRange(c._req.headers.range ?? '', size)
  } catch (error) {
    if (error instanceof RangeNotSatisfiableError) {
      c._res.code(416)
      c._res.header('content-range', `bytes */${size}`)
    }
    throw error
  }
}
