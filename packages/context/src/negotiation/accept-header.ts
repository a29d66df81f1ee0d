/**
 * Parser of the Accept, Accept-Charset, Accept-Encoding and Accept-Language headers.
 *
 * Hand-written (not `negotiator`) because the ranking rules of weft differ from negotiator's:
 * client ranking (quality, specificity, parameter count, header order) decides first and the
 * caller's offer order only breaks ties inside one range, and a `q=0` range refuses what it matches
 * at least as specifically as the positive match. A single pass over the string with no regular
 * expressions also keeps it about twice as fast as negotiator (see bench/run.ts).
 */

/** Which header a range list comes from; decides how tokens are split and matched. */
export type AcceptKind = 'media' | 'charset' | 'encoding' | 'language'

/** One range of an Accept-* header. */
export interface AcceptRange {
  /** Media: the type (`text`); other kinds: the whole lower-cased token (`en-us`, `gzip`). */
  main: string
  /** Media: the subtype (`html`); other kinds: `''`. */
  sub: string
  /** Media parameters other than `q`, flat `[name, value, ...]`, lower-cased and unquoted. */
  params: string[] | undefined
  /** Quality, 0..1. */
  q: number
  /** Specificity rank: wildcards low, more labels/parameters high. */
  rank: number
  /** Position in the header. */
  order: number
}

/** A parsed header: acceptable ranges best first, and the refusing (`q=0`) ranges. */
export interface ParsedAccept {
  positive: AcceptRange[]
  zero: AcceptRange[]
}

const COMMA = 44
const SEMI = 59
const EQ = 61
const QUOTE = 34
const BACKSLASH = 92

/** Parses a quality value; `-1` when it is not a number within 0..1. */
function parseQuality(value: string): number {
  if (value === '' || value.length > 5) return -1
  const q = Number(value)
  return q >= 0 && q <= 1 ? q : -1
}

function countLabels(tag: string): number {
  let labels = 1
  for (let i = 0; i < tag.length; i++) if (tag.charCodeAt(i) === 45) labels++
  return labels
}

/** Specificity of a token of `kind`: `*` is 0, otherwise the number of labels (media: 1 or 2). */
function rankOf(kind: AcceptKind, main: string, sub: string, params: string[] | undefined): number {
  const paramCount = params === undefined ? 0 : params.length / 2
  let base: number
  if (main === '*') base = 0
  else if (kind === 'media') base = sub === '*' ? 1 : 2
  else if (kind === 'language') base = countLabels(main)
  else base = main.endsWith('*') ? 1 : 2 // a prefix wildcard (`utf-*`) ranks below an exact name
  return base * 64 + paramCount
}

function compareRanges(a: AcceptRange, b: AcceptRange): number {
  return b.q - a.q || b.rank - a.rank || a.order - b.order
}

/**
 * Stable sort, best first. Headers are short and usually close to sorted already: insertion
 * sort for a few ranges; a long header (up to thousands of ranges at Node's header limit) would
 * make that quadratic, so it goes to the built-in O(n log n) sort, stable too.
 */
function sortRanges(ranges: AcceptRange[]): void {
  if (ranges.length > 16) {
    ranges.sort(compareRanges)
    return
  }
  for (let i = 1; i < ranges.length; i++) {
    const current = ranges[i] as AcceptRange
    let j = i - 1
    while (j >= 0 && compareRanges(ranges[j] as AcceptRange, current) > 0) {
      ranges[j + 1] = ranges[j] as AcceptRange
      j--
    }
    ranges[j + 1] = current
  }
}

/** Index of the first of `a`, `b` (char codes) at or after `i`, or the length. */
function scanTo(header: string, i: number, a: number, b: number): number {
  const n = header.length
  while (i < n) {
    const c = header.charCodeAt(i)
    if (c === a || c === b) return i
    i++
  }
  return n
}

/** Reads a quoted string starting after its opening quote; returns the unescaped value and the index after it. */
function readQuoted(header: string, i: number): [string, number] {
  let value = ''
  let start = i
  while (i < header.length) {
    const c = header.charCodeAt(i)
    if (c === QUOTE) break
    if (c === BACKSLASH) {
      value += header.slice(start, i)
      start = i + 1
      i++
    }
    i++
  }
  return [value + header.slice(start, i), i]
}

/** Most media parameters (other than `q`) one range may carry; a range with more is ignored. */
export const MAX_PARAMS = 16

/** What `readParams` reads of one range. */
interface ParamState {
  i: number
  q: number
  params: string[] | undefined
  /** media ranges keep their parameters; other kinds have none that count */
  media: boolean
  /** more than MAX_PARAMS distinct parameters: no offer could carry them all */
  tooMany: boolean
}

/** Index of the first `=`, `;` or `,` at or after `i`, or the length: where a parameter name ends. */
function nameEnd(header: string, i: number): number {
  const n = header.length
  while (i < n) {
    const c = header.charCodeAt(i)
    if (c === EQ || c === SEMI || c === COMMA) return i
    i++
  }
  return n
}

/**
 * Adds a parameter; a repeated name (any case: `b=1;B=2`) keeps the last value, as Fiber and
 * Express do. The look-up is linear, which the MAX_PARAMS cap keeps cheap.
 */
function addParam(state: ParamState, name: string, value: string): void {
  const params = state.params
  if (params === undefined) {
    state.params = [name, value]
    return
  }
  for (let i = 0; i < params.length; i += 2) {
    if (params[i] === name) {
      params[i + 1] = value
      return
    }
  }
  if (params.length >= MAX_PARAMS * 2) state.tooMany = true
  else params.push(name, value)
}

/**
 * Reads `;name=value` parameters starting at `state.i` (which points at a `;`), in one pass.
 * Parameters after `q` are accept-extensions (RFC 9110 12.4.2): not media parameters, so no offer
 * has to carry them (Fiber stops reading at `q` too).
 */
function readParams(header: string, state: ParamState): void {
  const n = header.length
  let i = state.i
  let afterQ = false
  while (i < n && header.charCodeAt(i) === SEMI) {
    const end = nameEnd(header, i + 1)
    const name = afterQ
      ? ''
      : header
          .slice(i + 1, end)
          .trim()
          .toLowerCase()
    i = end
    let value = ''
    if (i < n && header.charCodeAt(i) === EQ) {
      i++
      while (i < n && header.charCodeAt(i) === 32) i++
      if (header.charCodeAt(i) === QUOTE) {
        ;[value, i] = readQuoted(header, i + 1)
        i = scanTo(header, i, SEMI, COMMA)
      } else {
        const valueEnd = scanTo(header, i, SEMI, COMMA)
        if (!afterQ) value = header.slice(i, valueEnd).trim()
        i = valueEnd
      }
    }
    if (name === 'q') {
      state.q = parseQuality(value)
      afterQ = true
    } else if (name !== '' && state.media) addParam(state, name, value.toLowerCase())
  }
  state.i = i
}

/**
 * Parses an Accept-* header in one pass. Entries with an invalid quality, an invalid media type
 * or more than MAX_PARAMS parameters are ignored. Returns `undefined` for an absent or blank header ("anything goes").
 */
export function parseAccept(header: string | undefined, kind: AcceptKind): ParsedAccept | undefined {
  if (header === undefined || header.trim() === '') return undefined
  const positive: AcceptRange[] = []
  const zero: AcceptRange[] = []
  const n = header.length
  const state: ParamState = { i: 0, q: 1, params: undefined, media: kind === 'media', tooMany: false }
  let order = 0
  let i = 0
  while (i < n) {
    const c = header.charCodeAt(i)
    if (c === COMMA || c === 32 || c === 9) {
      i++
      continue
    }
    const start = i
    i = scanTo(header, i, SEMI, COMMA)
    const token = header.slice(start, i).trim().toLowerCase()
    state.i = i
    state.q = 1
    state.params = undefined
    state.tooMany = false
    readParams(header, state)
    i = state.i
    let main = token
    let sub = ''
    if (kind === 'media') {
      const slash = token.indexOf('/')
      if (slash === -1) {
        if (token !== '*') continue
        sub = '*'
      } else {
        main = token.slice(0, slash).trim()
        sub = token.slice(slash + 1).trim()
        if (main === '' || sub === '') continue
      }
    }
    if (state.q < 0 || token === '' || state.tooMany) continue
    const range: AcceptRange = {
      main,
      sub,
      params: state.params,
      q: state.q,
      rank: 0,
      order: order++,
    }
    range.rank = rankOf(kind, main, sub, range.params)
    ;(range.q === 0 ? zero : positive).push(range)
  }
  sortRanges(positive)
  return { positive, zero }
}
