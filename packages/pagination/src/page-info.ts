import { DEFAULT_CONFIG, type ResolvedConfig } from './config.js'
import { type CursorValues, decodeCursor, encodeCursor } from './cursor.js'
import { rewriteQuery } from './links.js'
import { onOwnOrigin } from './request-target.js'
import type { SortField, SortOrder } from './sort.js'

/** @internal The config that produced a PageInfo (keys for links, secret for tokens). */
export const kConfig = Symbol('weft.pagination.config')
/** @internal The decoded request cursor, once decoded. */
export const kValues = Symbol('weft.pagination.values')
/** @internal The sort as parsed from the request, before any `sortBy`. */
export const kParsedSort = Symbol('weft.pagination.parsedSort')
/** @internal The start of the request target that links must not keep (`foreignPrefix`). */
export const kForeign = Symbol('weft.pagination.foreign')
/** @internal The request target the hook saw: the default base of `fetchPage`'s links. */
export const kTarget = Symbol('weft.pagination.target')

/**
 * How a request pages. `cursor`: it carries a cursor, or names neither a page nor an offset (the
 * first page of a cursor walk); `offset`: it sends an offset above 0 (or only an
 * offset); `page`: otherwise. Links follow the mode: a response never mixes them.
 */
export type PagingMode = 'page' | 'offset' | 'cursor'

/** Fields a PageInfo may be created with by hand (the hook fills them from the query string). */
export interface PageInfoInit<S extends string = string> {
  page?: number
  limit?: number
  offset?: number
  sort?: SortField<S>[]
  cursor?: string
  /** Default: `cursor` with a cursor, `offset` with an offset above 0, else `page`. */
  mode?: PagingMode
}

/** `next` and `prev` links of a response, `null` when there is none. */
export interface PageLinks {
  next: string | null
  prev: string | null
}

/** The stable JSON shape of a PageInfo for API responses (`PageInfo#toJSON`). */
export interface PageInfoJSON<S extends string = string> {
  page: number
  limit: number
  offset: number
  sort: SortField<S>[]
  cursor: string
  has_more: boolean
  next_cursor: string
}

/**
 * The paging state of one request (Fiber: PageInfo), stored by the hook and read with
 * `fromContext`.
 *
 * @example
 * ```ts
 * const page = fromContext(request)!
 * // fetchPage asks for limit + 1 rows and sets hasMore, the next cursor and the links
 * return fetchPage(page, ({ offset, limit }) => db.select().from(items).offset(offset).limit(limit))
 * ```
 */
export class PageInfo<S extends string = string> {
  /** How this request pages (see `PagingMode`). */
  mode: PagingMode
  /**
   * Page number (1-based): in offset mode the page the first row falls on; `defaultPage` when the
   * request names no page (also on a cursor walk's first page); 1 with a cursor token (unused).
   */
  page: number
  /** Items per page, between 1 and the config's `maxLimit`. */
  limit: number
  /** Requested offset; 0 when none or in cursor mode. */
  offset: number
  /** Requested sort, in the order given (field names typed by the config's `allowedSorts`). */
  sort: SortField<S>[]
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
  [kParsedSort]: readonly SortField[];
  /** @internal */
  [kForeign]: string;
  /** @internal */
  [kTarget]: string

  constructor(init?: PageInfoInit<S>) {
    this.limit = init?.limit ?? DEFAULT_CONFIG.defaultLimit
    this.offset = init?.offset ?? 0
    this.sort = init?.sort ?? [{ field: DEFAULT_CONFIG.defaultSort as S, order: 'asc' }]
    this.cursor = init?.cursor ?? ''
    this.mode = init?.mode ?? (this.cursor !== '' ? 'cursor' : this.offset > 0 ? 'offset' : 'page')
    if (this.mode === 'cursor') this.offset = 0
    // A cursor walk's first page (no token yet) is where `page` points, `defaultPage` when the
    // request names none; with a token the keyset positions the rows and the page is unknown (1).
    this.page =
      this.mode === 'offset'
        ? Math.floor(this.offset / this.limit) + 1
        : this.mode === 'cursor' && this.cursor !== ''
          ? 1
          : Math.max(init?.page ?? 1, 1)
    this.hasMore = false
    this.nextCursor = ''
    this[kConfig] = DEFAULT_CONFIG
    this[kValues] = undefined
    this[kParsedSort] = this.sort
    this[kForeign] = ''
    this[kTarget] = ''
  }

  /**
   * Index of the first item: the offset in offset mode, `(page - 1) x limit` in page mode and on
   * the first page of a cursor walk (capped at `Number.MAX_SAFE_INTEGER`); 0 for a request with a
   * cursor token (the cursor's keyset condition positions it).
   */
  start(): number {
    if (this.mode === 'cursor' && this.cursor !== '') return 0
    if (this.mode === 'offset') return this.offset
    return this.page > 1 ? Math.min((this.page - 1) * this.limit, Number.MAX_SAFE_INTEGER) : 0
  }

  /** Appends a sort field. Chainable. */
  sortBy(field: S, order: SortOrder): this {
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

  /**
   * Next-page URL with custom page and limit keys; drops cursor parameters. In offset mode it
   * carries the next offset (the config's offset key) and drops the page key, so it starts exactly
   * after this page's last row.
   */
  nextPageURLWithKeys(baseURL: string, pageKey: string, limitKey: string): string {
    if (this.mode === 'offset')
      return this.#offsetURL(baseURL, this.start() + this.limit, this.limit, pageKey, limitKey)
    return this.#pageURL(baseURL, Math.max(this.page, 1) + 1, pageKey, limitKey)
  }

  /** Previous-page URL with the config's keys; `''` on page 1. */
  previousPageURL(baseURL: string): string {
    return this.previousPageURLWithKeys(baseURL, this[kConfig].pageKey, this[kConfig].limitKey)
  }

  /**
   * Previous-page URL with custom keys; `''` on page 1. In offset mode: the rows just before this
   * page (offset `max(0, offset - limit)`, limit shortened when fewer rows precede), `''` at offset 0.
   */
  previousPageURLWithKeys(baseURL: string, pageKey: string, limitKey: string): string {
    if (this.mode === 'offset') {
      const start = this.start()
      if (start === 0) return ''
      const offset = Math.max(0, start - this.limit)
      return this.#offsetURL(baseURL, offset, start - offset, pageKey, limitKey)
    }
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
      onOwnOrigin(baseURL, this[kForeign]),
      [
        [cursorKey, this.nextCursor],
        [limitKey, String(this.limit)],
      ],
      [pageKey, offsetKey, configCursorKey, cursorParam],
    )
  }

  /**
   * The next link in this request's mode, `''` when `hasMore` is false: a cursor link in cursor
   * mode, else an offset or page link (`nextPageURL`).
   */
  nextURL(baseURL: string): string {
    if (!this.hasMore) return ''
    return this.mode === 'cursor' ? this.nextCursorURL(baseURL) : this.nextPageURL(baseURL)
  }

  /** The previous link in this request's mode; `''` in cursor mode (cursors only go forward, by design). */
  previousURL(baseURL: string): string {
    return this.mode === 'cursor' ? '' : this.previousPageURL(baseURL)
  }

  /** `{ next, prev }` from `nextURL` and `previousURL`, `null` for none: one mode, never mixed. */
  links(baseURL: string): PageLinks {
    return { next: this.nextURL(baseURL) || null, prev: this.previousURL(baseURL) || null }
  }

  /** The stable response shape: `page`, `limit`, `offset`, `sort`, `cursor`, `has_more`, `next_cursor`. */
  toJSON(): PageInfoJSON<S> {
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

  #offsetURL(baseURL: string, offset: number, limit: number, pageKey: string, limitKey: string): string {
    const { offsetKey, cursorKey, cursorParam } = this[kConfig]
    return rewriteQuery(
      onOwnOrigin(baseURL, this[kForeign]),
      [
        [offsetKey, String(offset)],
        [limitKey, String(limit)],
      ],
      [pageKey, cursorKey, cursorParam],
    )
  }

  #pageURL(baseURL: string, page: number, pageKey: string, limitKey: string): string {
    const { offsetKey, cursorKey, cursorParam } = this[kConfig]
    return rewriteQuery(
      onOwnOrigin(baseURL, this[kForeign]),
      [
        [pageKey, String(page)],
        [limitKey, String(this.limit)],
      ],
      [offsetKey, cursorKey, cursorParam],
    )
  }
}
