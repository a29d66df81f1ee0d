import type { CtxBase } from './ctx-base.js'

const INTEGER = /^[+-]?\d+$/
// each digit has one place to go (`\d+\.?\d*` let a run of digits split two ways: quadratic
// backtracking on a long digit string that fails at its end)
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/
const TRUE = new Set(['true', '1', 't'])
const FALSE = new Set(['false', '0', 'f'])

/** The query string of the request, parsed once (keys verbatim, every value kept). */
export function searchParams(c: CtxBase): URLSearchParams {
  if (c._query === undefined) {
    const url = c._req.raw.url ?? ''
    const mark = url.indexOf('?')
    c._query = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1))
  }
  return c._query
}

/** First value of a query parameter, or `def` (`''`) when absent or empty. */
export function query(c: CtxBase, key: string, def = ''): string {
  const value = searchParams(c).get(key)
  return value === null || value === '' ? def : value
}

/** All query parameters; a repeated key keeps its last value, keys verbatim, no comma splitting. */
export function queries(c: CtxBase): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of searchParams(c)) out[key] = value
  return out
}

/** A query parameter as an integer (whole decimal string), else `def` (0). */
export function queryInt(c: CtxBase, key: string, def = 0): number {
  const value = searchParams(c).get(key)
  if (value === null || !INTEGER.test(value)) return def
  const n = Number(value)
  return Number.isSafeInteger(n) ? n : def
}

/** A query parameter as a float, else `def` (0). */
export function queryFloat(c: CtxBase, key: string, def = 0): number {
  const value = searchParams(c).get(key)
  if (value === null || !FLOAT.test(value)) return def
  const n = Number(value)
  return Number.isFinite(n) ? n : def
}

/** A query parameter as a boolean (`true/false/1/0/t/f`, any case), else `def` (false). */
export function queryBool(c: CtxBase, key: string, def = false): boolean {
  const value = searchParams(c).get(key)
  if (value === null) return def
  const lower = value.toLowerCase()
  if (TRUE.has(lower)) return true
  if (FALSE.has(lower)) return false
  return def
}
