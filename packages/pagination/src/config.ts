import { Buffer } from 'node:buffer'
import type { FastifyRequest } from 'fastify'

/**
 * Options of `paginate(config)` and of the `weftPagination` plugin (Fiber's pagination Config).
 * Every property is optional; empty keys and out-of-range numbers fall back to the defaults.
 *
 * @example
 * ```ts
 * paginate({ sortKey: 'sort', allowedSorts: ['id', 'price'], maxLimit: 50 })
 * ```
 */
export interface PaginationConfig<S extends string = string> {
  /** Skips the component for a request when it returns true (`fromContext` then gives `undefined`). */
  next?: (request: FastifyRequest) => boolean
  /** Query key of the page number. Default `'page'`. */
  pageKey?: string
  /** Page used when the request has none. Default `1`. */
  defaultPage?: number
  /** Query key of the page size. Default `'limit'`. */
  limitKey?: string
  /** Page size used when the request has none (clamped to `maxLimit`). Default `10`. */
  defaultLimit?: number
  /** Largest page size; bigger requests are capped. Default `100`. */
  maxLimit?: number
  /** Query key of the sort list (`sort=-price,name`). Default `'sort'`. */
  sortKey?: string
  /**
   * Sort field used when the request sorts by nothing allowed. Default `'id'`. With `allowedSorts`
   * given as literals it must be one of them (a name that is not is a type error; at run time the
   * first allowed field is used instead).
   */
  defaultSort?: NoInfer<S>
  /**
   * Sort fields a request may use (exact match). When missing or empty the request's sort is
   * ignored and `defaultSort` is used; when `defaultSort` is not listed, the first entry is.
   * Given as literals (`['id', 'price']`), `paginate()` types `sort[i].field` as `'id' | 'price'`.
   */
  allowedSorts?: readonly S[]
  /** Query key of the offset. Default `'offset'`. */
  offsetKey?: string
  /** Query key of the cursor token. Default `'cursor'`. */
  cursorKey?: string
  /** Alias of `cursorKey`, read when `cursorKey` is absent. Default: none. */
  cursorParam?: string
  /**
   * Opt-in: signs cursor tokens with HMAC-SHA256 and rejects tampered or unsigned ones (400
   * `WEFT_CURSOR_INVALID`). Pass several secrets to rotate: the first signs, any verifies.
   */
  cursorSecret?: string | Uint8Array | readonly (string | Uint8Array)[]
  /** Opt-in: tokens embed a fingerprint of the sort; a cursor replayed with another sort gets a 400. */
  sortFingerprint?: boolean
  /**
   * Opt-in: unparsable or out-of-range page, limit or offset answers 400
   * `WEFT_PAGINATION_INVALID` (with the `field`) instead of being clamped.
   */
  strict?: boolean
  /**
   * Opt-in: deepest start index a request may reach by `offset` or `page`. Deeper requests are
   * clamped (or rejected with `strict`). Default: unbounded.
   */
  maxOffset?: number
  /**
   * Opt-in: makes `fromContext()` without argument work inside the request, through
   * `AsyncLocalStorage`. Default `false`: on Node 20 and 22 the first `AsyncLocalStorage.run` in a
   * process adds a cost to every promise of the app (see the README), and
   * `fromContext(request)` needs none of it.
   */
  asyncContext?: boolean
}

/** A `PaginationConfig` with every default applied, computed once per hook. */
export interface ResolvedConfig {
  readonly next: ((request: FastifyRequest) => boolean) | undefined
  readonly pageKey: string
  readonly defaultPage: number
  readonly limitKey: string
  readonly defaultLimit: number
  readonly maxLimit: number
  readonly sortKey: string
  readonly defaultSort: string
  readonly allowedSorts: ReadonlySet<string> | undefined
  readonly offsetKey: string
  readonly cursorKey: string
  readonly cursorParam: string
  readonly secrets: readonly Buffer[]
  readonly sortFingerprint: boolean
  readonly strict: boolean
  readonly maxOffset: number
  readonly asyncContext: boolean
}

const positiveInt = (value: number | undefined, fallback: number): number =>
  value !== undefined && Number.isSafeInteger(value) && value >= 1 ? value : fallback

const key = (value: string | undefined, fallback: string): string => (value ? value : fallback)

function secretsOf(secret: PaginationConfig['cursorSecret']): Buffer[] {
  if (secret === undefined) return []
  const list = typeof secret === 'string' || secret instanceof Uint8Array ? [secret] : [...secret]
  return list.map((s) => {
    const buffer = typeof s === 'string' ? Buffer.from(s, 'utf8') : Buffer.from(s)
    if (buffer.length === 0) throw new TypeError('@weft/pagination: cursorSecret must not be empty')
    return buffer
  })
}

/** Applies the defaults and normalisation rules. Throws `TypeError` for unusable extras. */
export function resolveConfig(config: PaginationConfig = {}): ResolvedConfig {
  const maxLimit = positiveInt(config.maxLimit, 100)
  const allowed = config.allowedSorts?.filter((field) => field !== '') ?? []
  let defaultSort = key(config.defaultSort, 'id')
  if (allowed.length > 0 && !allowed.includes(defaultSort)) defaultSort = allowed[0] as string
  const maxOffset = config.maxOffset ?? Number.POSITIVE_INFINITY
  if (config.maxOffset !== undefined && (!Number.isSafeInteger(maxOffset) || maxOffset < 0)) {
    throw new TypeError('@weft/pagination: maxOffset must be a non-negative safe integer')
  }
  return Object.freeze({
    next: config.next,
    pageKey: key(config.pageKey, 'page'),
    defaultPage: positiveInt(config.defaultPage, 1),
    limitKey: key(config.limitKey, 'limit'),
    defaultLimit: Math.min(positiveInt(config.defaultLimit, 10), maxLimit),
    maxLimit,
    sortKey: key(config.sortKey, 'sort'),
    defaultSort,
    allowedSorts: allowed.length > 0 ? new Set(allowed) : undefined,
    offsetKey: key(config.offsetKey, 'offset'),
    cursorKey: key(config.cursorKey, 'cursor'),
    cursorParam: config.cursorParam ?? '',
    secrets: secretsOf(config.cursorSecret),
    sortFingerprint: config.sortFingerprint === true,
    strict: config.strict === true,
    maxOffset,
    asyncContext: config.asyncContext === true,
  })
}

/** The configuration of a `PageInfo` built by hand (`new PageInfo()`). */
export const DEFAULT_CONFIG: ResolvedConfig = resolveConfig()
