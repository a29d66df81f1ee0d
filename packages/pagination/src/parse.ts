import type { ResolvedConfig } from './config.js'
import { decodeCursor } from './cursor.js'
import { PaginationInvalidError } from './errors.js'
import { parseWholeNumber } from './integer.js'
import { kConfig, kValues, PageInfo } from './page-info.js'
import { parseSort } from './sort.js'

type Query = Record<string, unknown>

/**
 * First value of a query key; `null` when present but neither a string nor a number (a nested
 * object). Numbers come from a route's querystring schema, whose validator converted the text.
 */
function read(query: Query, key: string): string | undefined | null {
  let value = query[key]
  if (Array.isArray(value)) value = value[0]
  if (value === undefined || typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return numberText(value)
  return null
}

/** A number as the whole decimal digits the parser reads (`1e21` would not be). */
const numberText = (value: number): string =>
  Number.isSafeInteger(value) ? String(value) : Number.isInteger(value) ? BigInt(value).toString() : String(value)

/** Whether the query names `key` (with any value, even an empty or unparsable one). */
const hasKey = (query: Query, key: string): boolean => query[key] !== undefined

/** Reads an integer parameter: `undefined` when absent or empty, `NaN` when unparsable. */
function readInteger(query: Query, key: string): number | undefined {
  const text = read(query, key)
  if (text === undefined || text === '') return undefined
  return text === null ? Number.NaN : parseWholeNumber(text)
}

function parseLimit(query: Query, config: ResolvedConfig): number {
  const limit = readInteger(query, config.limitKey)
  if (limit === undefined) return config.defaultLimit
  if (config.strict) {
    if (Number.isNaN(limit)) throw new PaginationInvalidError(config.limitKey, 'must be a whole number')
    if (limit < 1 || limit > config.maxLimit) {
      throw new PaginationInvalidError(config.limitKey, `must be between 1 and ${config.maxLimit}`)
    }
  }
  if (Number.isNaN(limit) || limit < 1) return config.defaultLimit
  return Math.min(limit, config.maxLimit)
}

function parsePage(query: Query, config: ResolvedConfig, limit: number): number {
  let page = readInteger(query, config.pageKey)
  if (page === undefined) page = config.defaultPage
  else if (config.strict && (Number.isNaN(page) || page < 1)) {
    throw new PaginationInvalidError(config.pageKey, 'must be a whole number of at least 1')
  } else if (Number.isNaN(page)) page = config.defaultPage
  else if (page < 1) page = 1
  const deepest = Math.floor(config.maxOffset / limit) + 1
  if (page > deepest) {
    if (config.strict) throw new PaginationInvalidError(config.pageKey, `must be at most ${deepest}`)
    return deepest
  }
  return page
}

function parseOffset(query: Query, config: ResolvedConfig): number {
  const offset = readInteger(query, config.offsetKey)
  if (offset === undefined) return 0
  if (config.strict && (Number.isNaN(offset) || offset < 0 || offset > config.maxOffset)) {
    const range = Number.isFinite(config.maxOffset) ? `between 0 and ${config.maxOffset}` : 'of at least 0'
    throw new PaginationInvalidError(config.offsetKey, `must be a whole number ${range}`)
  }
  if (Number.isNaN(offset) || offset < 0) return 0
  return Math.min(offset, config.maxOffset)
}

/**
 * Turns a request's query object into a PageInfo under `config` (the documented rules, plus the
 * opt-in `strict`, `maxOffset`, signature and fingerprint checks). Throws `PaginationError`s.
 */
export function parsePageInfo(query: Query | null | undefined, config: ResolvedConfig): PageInfo {
  const q: Query = query ?? {}
  const limit = parseLimit(q, config)
  const sort = parseSort(read(q, config.sortKey) ?? undefined, config)
  let cursor = read(q, config.cursorKey)
  if (!cursor && config.cursorParam !== '') cursor = read(q, config.cursorParam)
  let info: PageInfo
  if (cursor) {
    const values = decodeCursor(cursor, config, sort)
    info = new PageInfo({ limit, sort, cursor, mode: 'cursor' })
    info[kValues] = values
  } else {
    const page = parsePage(q, config, limit)
    const offset = parseOffset(q, config)
    // Offset wins over page when above 0; a request naming neither is a cursor walk's first page.
    const mode =
      offset > 0 ? 'offset' : hasKey(q, config.pageKey) ? 'page' : hasKey(q, config.offsetKey) ? 'offset' : 'cursor'
    info = new PageInfo({ page, limit, offset, sort, cursor: '', mode })
  }
  info[kConfig] = config
  return info
}
