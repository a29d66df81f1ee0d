import { Type } from 'typebox'
import { MAX_ID } from './common.js'

export const CreateProductBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    amount: Type.Integer({ minimum: 0, maximum: MAX_ID }),
  },
  { additionalProperties: false },
)

/** A product as the API shows it (`#/components/schemas/Product`). */
export const ProductSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: Type.String(),
    amount: Type.Integer(),
    owner_id: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Product' },
)

/** Page size when `limit` is absent or below 1. */
export const DEFAULT_LIMIT = 10
/** Largest page: a larger `limit` is served as this. */
export const MAX_LIMIT = 100
/** Deepest start index a page or offset request reaches; deeper lists are walked with the cursor. */
export const MAX_OFFSET = 100_000

/**
 * Query of `GET /api/products` (read by @weft/pagination; documented here). The server clamps page, limit and
 * offset instead of refusing them, so the document accepts any integer and says how each is clamped; what is not
 * an integer is a 400 (`integerQuery`).
 */
export const ListProductsQuery = Type.Object({
  page: Type.Optional(
    Type.Integer({
      default: 1,
      description: `page number, any integer in decimal digits; below 1 counts as 1, and a page that would start past offset ${MAX_OFFSET} (however large) as the last one that does not`,
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      default: DEFAULT_LIMIT,
      description: `page size, 1 to ${MAX_LIMIT}; any integer in decimal digits is accepted: above ${MAX_LIMIT} counts as ${MAX_LIMIT}, below 1 as ${DEFAULT_LIMIT}`,
    }),
  ),
  offset: Type.Optional(
    Type.Integer({
      description: `start index instead of the page, 0 to ${MAX_OFFSET}; any integer in decimal digits is accepted: below 0 counts as 0, above ${MAX_OFFSET} as ${MAX_OFFSET} (walk further with the cursor)`,
    }),
  ),
  sort: Type.Optional(
    Type.String({
      description:
        'comma-separated fields of id, title, amount, created_at; "-" prefix for descending; other names are ignored',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'next_cursor of the previous page (keyset pagination in the same sort); a longer one is refused',
    }),
  ),
})

/**
 * `meta.pagination` of the list (`#/components/schemas/Pagination`): the PageInfo JSON (the values applied:
 * limit capped, unknown sort fields dropped, page/offset as used) plus `links` in the request's one mode: page
 * links for a page request, offset links for an offset request, cursor links for a cursor walk (a request with
 * a cursor, or with neither page nor offset), whose `prev` is always null (cursors go forward).
 */
export const PaginationSchema = Type.Object(
  {
    page: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    sort: Type.Array(
      Type.Object({ field: Type.String(), order: Type.Union([Type.Literal('asc'), Type.Literal('desc')]) }),
    ),
    cursor: Type.String(),
    has_more: Type.Boolean(),
    next_cursor: Type.String(),
    links: Type.Object({
      next: Type.Union([Type.String(), Type.Null()]),
      prev: Type.Union([Type.String(), Type.Null()]),
    }),
  },
  { $id: 'Pagination' },
)
