import type { CursorValues } from './cursor.js'
import { kTarget, type PageInfo, type PageInfoJSON, type PageLinks } from './page-info.js'
import type { SortField } from './sort.js'

/** What `fetchPage` asks its `fetch` function for: the rows of one page, plus one. */
export interface PageQuery<S extends string = string> {
  /** Rows to skip: `page.start()` (0 on a cursor walk's later pages, where `after` positions them). */
  offset: number
  /** `page.limit + 1`: the extra row tells whether another page follows; it is not sent. */
  limit: number
  /** The request's sort, in order; with `unique`, that field is appended when the sort lacks it. */
  sort: SortField<S | string>[]
  /**
   * On a cursor walk's later pages, the sort values of the last row of the page before
   * (`{ price: 10, id: 7 }`): return the rows that come after it in `sort`. `undefined` otherwise.
   */
  after: CursorValues | undefined
}

/** Options of `fetchPage`. */
export interface FetchPageOptions<Row> {
  /**
   * A field whose value is unique among the rows (a primary key), appended to the sort and to every
   * cursor so that rows sharing a sort value are neither repeated nor skipped on a cursor walk.
   * Sort by it last in `fetch`.
   */
  unique?: keyof Row & string
  /**
   * The values of the next cursor, from the page's last row. Default: the row's value of each sort
   * field (and of `unique`), by property name. They must survive JSON (a `Date` becomes its ISO text).
   */
  cursorOf?: (row: Row) => CursorValues
  /**
   * The base URL of the links: default, the request URL the hook saw (or `''` for a PageInfo made
   * by hand). `false` leaves `links` out of the answer (`pageAnswerSchema(item, config, { links: false })`).
   */
  links?: string | false
}

/** A page answer: `{ data, ...page.toJSON(), links }`, the shape `pageAnswerSchema` describes. */
export type PageAnswer<Row, S extends string = string> = PageInfoJSON<S> & { data: Row[]; links?: PageLinks }

function sortValuesOf(sort: readonly SortField[]): (row: object) => CursorValues {
  return (row) => {
    const values: CursorValues = {}
    for (const { field } of sort) values[field] = (row as Record<string, unknown>)[field]
    return values
  }
}

/**
 * Fetches one page and answers it in one call: asks `fetch` for `limit + 1` rows (from `offset`,
 * or `after` a cursor's values), keeps `page.limit` of them, sets `hasMore` and, on a cursor walk,
 * the next cursor from the last kept row's sort values; returns `{ data, ...page.toJSON(), links }`.
 * No flag is set by hand: the links' `next` is `null` on the last page, in every mode.
 *
 * @example
 * ```ts
 * const paging = paginate({ allowedSorts: ['id', 'price'] })
 * app.get('/products', { onRequest: paging }, (request) =>
 *   fetchPage(paging.fromContext(request), (q) => db.products.list(q), { unique: 'id' }),
 * )
 * ```
 */
export async function fetchPage<Row extends object, S extends string = string>(
  page: PageInfo<S>,
  fetch: (query: PageQuery<S>) => readonly Row[] | Promise<readonly Row[]>,
  options: FetchPageOptions<Row> = {},
): Promise<PageAnswer<Row, S>> {
  const { unique } = options
  const sort: SortField<S | string>[] =
    unique === undefined || page.sort.some(({ field }) => (field as string) === unique)
      ? page.sort
      : [...page.sort, { field: unique, order: page.sort[0]?.order ?? 'asc' }]
  const after = page.mode === 'cursor' && page.cursor !== '' ? page.cursorValues() : undefined
  const rows = await fetch({ offset: page.start(), limit: page.limit + 1, sort, after })
  const more = rows.length > page.limit
  const data = rows.slice(0, page.limit)
  page.nextCursor = ''
  page.hasMore = more
  const last = data[data.length - 1]
  if (more && page.mode === 'cursor' && last !== undefined) {
    page.setNextCursor((options.cursorOf ?? sortValuesOf(sort))(last))
  }
  const answer: PageAnswer<Row, S> = { data, ...page.toJSON() }
  if (options.links !== false) answer.links = page.links(options.links ?? page[kTarget])
  return answer
}
