import { type PaginationConfig, type ResolvedConfig, resolveConfig } from './config.js'
import { MAX_CURSOR_LENGTH } from './errors.js'

/** A JSON Schema object (what Fastify's route `schema` and `@fastify/swagger` take). */
export type JsonSchema = { [keyword: string]: unknown }

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `page`, `limit` and `offset`: whole numbers; with `strict` their ranges, else how each is clamped. */
function numbers(c: ResolvedConfig): Record<string, JsonSchema> {
  const bounded = Number.isFinite(c.maxOffset)
  const page: JsonSchema = {
    type: 'integer',
    description: c.strict
      ? `page number, from 1 (default ${c.defaultPage})`
      : `page number (default ${c.defaultPage}); below 1 counts as 1${bounded ? `, a page starting past offset ${c.maxOffset} as the last one that does not` : ''}`,
  }
  const limit: JsonSchema = {
    type: 'integer',
    default: c.defaultLimit,
    description: c.strict
      ? `page size, 1 to ${c.maxLimit}`
      : `page size, 1 to ${c.maxLimit}; above counts as ${c.maxLimit}, below 1 as ${c.defaultLimit}`,
  }
  const offset: JsonSchema = {
    type: 'integer',
    description: c.strict
      ? `start index instead of the page${bounded ? `, 0 to ${c.maxOffset}` : ''}`
      : `start index instead of the page; below 0 counts as 0${bounded ? `, above ${c.maxOffset} as ${c.maxOffset}` : ''}`,
  }
  if (c.strict) {
    page.minimum = 1
    limit.minimum = 1
    limit.maximum = c.maxLimit
    offset.minimum = 0
    if (bounded) offset.maximum = c.maxOffset
  }
  return { [c.pageKey]: page, [c.limitKey]: limit, [c.offsetKey]: offset }
}

/** `sort`: the allowed names, `-` for descending, comma-separated. */
function sortSchema(c: ResolvedConfig): JsonSchema {
  const allowed = c.allowedSorts === undefined ? undefined : [...c.allowedSorts]
  if (allowed === undefined) {
    return { type: 'string', description: `not read: every page is sorted by ${c.defaultSort}` }
  }
  const name = `-?(?:${allowed.map(escapeRegExp).join('|')})`
  return {
    type: 'string',
    pattern: `^${name}(?:,${name})*$`,
    description: `comma-separated fields of ${allowed.join(', ')}; "-" before a field sorts it descending (default ${c.defaultSort}); other names are ignored, at most 8 are read`,
    examples: [allowed.length > 1 ? `-${allowed[1]},${allowed[0]}` : `-${allowed[0]}`],
  }
}

/**
 * The JSON Schema of the query string `paginate(config)` reads (pass the same config): `page`,
 * `limit`, `offset`, `sort` (its allowed fields as a pattern) and `cursor`, under the config's key
 * names; ranges when `strict`, else descriptions of how values are clamped. For a route's
 * `schema.querystring`, so that `@fastify/swagger` documents the parameters: no property is
 * required and only `limit` has a `default` (a `page` filled in by a validator would turn a cursor
 * walk's first request into page mode).
 *
 * @example
 * const config = { allowedSorts: ['id', 'price'], maxLimit: 50 }
 * app.get('/products', { onRequest: paginate(config), schema: { querystring: paginationQuerySchema(config) } }, list)
 */
export function paginationQuerySchema(config?: PaginationConfig): JsonSchema {
  const c = resolveConfig(config)
  const cursor: JsonSchema = {
    type: 'string',
    maxLength: MAX_CURSOR_LENGTH,
    description: 'next_cursor of the previous page: keyset pagination in the same sort',
  }
  const properties: Record<string, JsonSchema> = { ...numbers(c), [c.sortKey]: sortSchema(c), [c.cursorKey]: cursor }
  if (c.cursorParam !== '' && c.cursorParam !== c.cursorKey) {
    properties[c.cursorParam] = { ...cursor, description: `the same as ${c.cursorKey}` }
  }
  return { type: 'object', properties }
}

/**
 * The JSON Schema of `PageInfo#toJSON()` (`page`, `limit`, `offset`, `sort`, `cursor`, `has_more`,
 * `next_cursor`), with the allowed sort fields of `config` as an enum.
 */
export function pageInfoSchema(config?: PaginationConfig): JsonSchema {
  const c = resolveConfig(config)
  const fields = c.allowedSorts === undefined ? [c.defaultSort] : [...c.allowedSorts]
  return {
    type: 'object',
    properties: {
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1, maximum: c.maxLimit },
      offset: { type: 'integer', minimum: 0 },
      sort: {
        type: 'array',
        items: {
          type: 'object',
          properties: { field: { type: 'string', enum: fields }, order: { type: 'string', enum: ['asc', 'desc'] } },
          required: ['field', 'order'],
        },
      },
      cursor: { type: 'string' },
      has_more: { type: 'boolean' },
      next_cursor: { type: 'string', description: 'the cursor of the next page; empty when there is none' },
    },
    required: ['page', 'limit', 'offset', 'sort', 'cursor', 'has_more', 'next_cursor'],
  }
}

/** The JSON Schema of `PageInfo#links()`: `next` and `prev` URLs, `null` when there is none. */
export function pageLinksSchema(): JsonSchema {
  const link = { anyOf: [{ type: 'string' }, { type: 'null' }] }
  return { type: 'object', properties: { next: link, prev: link }, required: ['next', 'prev'] }
}

/**
 * The JSON Schema of a page answer `{ data: [...items], ...page.toJSON(), links }`: `items` is the
 * schema of one item; `links` is left out with `{ links: false }`.
 *
 * @example
 * app.get('/products', { onRequest: paginate(config), schema: {
 *   querystring: paginationQuerySchema(config),
 *   response: { 200: pageAnswerSchema(Product, config) },
 * } }, async (request) => ({ data: rows, ...page.toJSON(), links: page.links(request.url) }))
 */
export function pageAnswerSchema(items: object, config?: PaginationConfig, options?: { links?: boolean }): JsonSchema {
  const info = pageInfoSchema(config)
  const properties: Record<string, unknown> = {
    data: { type: 'array', items },
    ...(info.properties as Record<string, unknown>),
  }
  const required = ['data', ...(info.required as string[])]
  if (options?.links !== false) {
    properties.links = pageLinksSchema()
    required.push('links')
  }
  return { type: 'object', properties, required }
}
