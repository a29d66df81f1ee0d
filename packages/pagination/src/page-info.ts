import { DEFAULT_CONFIG, type ResolvedConfig } from './config.js'
import { type CursorValues, decodeCursor, encodeCursor } from './cursor.js'
import { rewriteQuery } from './links.js'
import type { SortField, SortOrder } from './sort.js'

/** @internal The config that produced a PageInfo (keys for links, secret for tokens). */
export const kConfig = Symbol('weft.pagination.config')
/** @internal The decoded request cursor, once decoded. */
export const kValues = Symbol('weft.pagination.values')
/** @internal The sort as parsed from the request, before any `sortBy`. */
export const kParsedSort = Symbol('weft.pagination.parsedSort')

/** Fields a PageInfo may be created with by hand (the hook fills them from the query string). */
export interface PageInfoInit {
  page?: number
  limit?: number
  offset?: number
  sort?: SortField[]
  cursor?: string
}

/** The stable JSON shape of a PageInfo for API responses (`PageInfo#toJSON`). */
export interface PageInfoJSON {
  page: number
  limit: number
  offset: number
  sort: SortField[]
  cursor: string
  has_more: boolean
  next_cursor: string
}

/**
 * The paging state of one request (seed: PageInfo), stored by the hook and read with
 * `fromContext`.
 *
 * @example
 * ```ts
 * const page = fromContext(request)!
 * const rows = await db.select().from(items).offset(page.start()).limit(page.limit + 1)
 * if (rows.length > page.limit) page.setNextCursor({ id: rows[page.limit - 1].id })
 * return { data: rows.slice(0, page.limit), ...page.toJSON() }
 * ```
 */
export class PageInfo {
  /** Page number (1-based); 0 in cursor mode. */
  page: number
  /** Items per page, between 1 and the config's `maxLimit`. */
  limit: number
  /** Requested offset; 0 when none or in cursor mode. */
  offset: number
  /** Requested sort, in the order given. */
  sort: SortField[]
  /** Cursor token of the request; `''` when none. */
  cursor: string
  /** Whether more items follow; set by `setNextCursor`. */
  hasMore: boolean
  /** Token for the next request; set by `setNextCursor`. */
  nextCursor: string;
  /** @internal */
  [kConfig]: ResolvedConfig;
  /** @internal */
  [kValues]: CursorValues | undefined;
  /** @internal */
  [kParsedSort]: readonly SortField[]

  constructor(init?: PageInfoInit) {
    this.page = init?.page ?? 1
    this.limit = init?.limit ?? DEFAULT_CONFIG.defaultLimit
    this.offset = init?.offset ?? 0
    this.sort = init?.sort ?? [{ field: DEFAULT_CONFIG.defaultSort, order: 'asc' }]
    this.cursor = init?.cursor ?? ''
    this.hasMore = false
    this.nextCursor = ''
    this[kConfig] = DEFAULT_CONFIG
    this[kValues] = undefined
    this[kParsedSort] = this.sort
  }

  /**
   * Index of the first item: the offset when above 0, else `(page - 1) x limit` (capped at
   * `Number.MAX_SAFE_INTEGER`); 0 in cursor mode.
   */
  start(): number {
    if (this.cursor !== '') return 0
    if (this.offset > 0) return this.offset
    return this.page > 1 ? Math.min((this.page - 1) * this.limit, Number.MAX_SAFE_INTEGER) : 0
  }

  /** Appends a sort field. Chainable. */
  sortBy(field: string, order: SortOrder): this {
    this.sort = [...this.sort, { field, order }]
    return this
  }

  /** Decodes the request's cursor token into its values; `{}` when there is none. */
  cursorValues(): CursorValues {
    if (this[kValues] !== undefined) return this[kValues]
    if (this.cursor === '') return {}
    const values = decodeCursor(this.cursor, this[kConfig], this[kParsedSort])
    this[kValues] = values
    return values
  }

  /**
   * Encodes `values` into the next cursor token and sets `hasMore`. Throws `CursorTooLongError`
   * (statusCode 500) when the token would exceed 2048 characters.
   */
  setNextCursor(values: CursorValues): void {
    this.nextCursor = encodeCursor(values, this[kConfig], this[kParsedSort])
    this.hasMore = true
  }

  /** Next-page URL with the config's page and limit keys. */
  nextPageURL(baseURL: string): string {
    return this.nextPageURLWithKeys(baseURL, this[kConfig].pageKey, this[kConfig].limitKey)
  }

  /** Next-page URL with custom page and limit keys; drops offset and cursor parameters. */
  nextPageURLWithKeys(baseURL: string, pageKey: string, limitKey: string): string {
    return this.#pageURL(baseURL, Math.max(this.page, 1) + 1, pageKey, limitKey)
  }

  /** Previous-page URL with the config's keys; `''` on page 1. */
  previousPageURL(baseURL: string): string {
    return this.previousPageURLWithKeys(baseURL, this[kConfig].pageKey, this[kConfig].limitKey)
  }

  /** Previous-page URL with custom keys; `''` on page 1. */
  previousPageURLWithKeys(baseURL: string, pageKey: string, limitKey: string): string {
    return this.page > 1 ? this.#pageURL(baseURL, this.page - 1, pageKey, limitKey) : ''
  }

  /** Next-cursor URL with the config's cursor and limit keys; `''` when there is no more. */
  nextCursorURL(baseURL: string): string {
    return this.nextCursorURLWithKeys(baseURL, this[kConfig].cursorKey, this[kConfig].limitKey)
  }

  /** Next-cursor URL with custom keys; drops page and offset parameters; `''` when there is no more. */
  nextCursorURLWithKeys(baseURL: string, cursorKey: string, limitKey: string): string {
    if (!this.hasMore || this.nextCursor === '') return ''
    const { pageKey, offsetKey, cursorKey: configCursorKey, cursorParam } = this[kConfig]
    return rewriteQuery(
      baseURL,
      [
        [cursorKey, this.nextCursor],
        [limitKey, String(this.limit)],
      ],
      [pageKey, offsetKey, configCursorKey, cursorParam],
    )
  }

  /** The stable response shape: `page`, `limit`, `offset`, `sort`, `cursor`, `has_more`, `next_cursor`. */
  toJSON(): PageInfoJSON {
    return {
      page: this.page,
      limit: this.limit,
      offset: this.offset,
      sort: this.sort.map(({ field, order }) => ({ field, order })),
      cursor: this.cursor,
      has_more: this.hasMore,
      next_cursor: this.nextCursor,
    }
  }

  #pageURL(baseURL: string, page: number, pageKey: string, limitKey: string): string {
    const { offsetKey, cursorKey, cursorParam } = this[kConfig]
    return rewriteQuery(
      baseURL,
      [
        [pageKey, String(page)],
        [limitKey, String(this.limit)],
      ],
      [offsetKey, cursorKey, cursorParam],
    )
  }
}
