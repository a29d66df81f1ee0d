// What every server of the peer comparison shares (src/http/peers.ts): the scenarios' schemas (TypeBox
// for Weft, Fastify and Ajv; zod for Hono, the validator Hono users reach for), the 10,000 rows the
// pagination route lists from memory, and the body of the negotiated answer. Same data, same rules:
// only the framework differs.
import { type TObject, Type } from 'typebox'
import { z } from 'zod'

/** The negotiated body: `text/html` wins with Chrome's Accept, as `<p>` + text + `</p>`. */
export const greeting = 'Hello, world'

/** JSON body scenario: a 10-field item (also the body of bench/src/micro/json-body.ts). */
export const Item = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 2000 }),
  amount: Type.Integer({ minimum: 0 }),
  price: Type.Number({ minimum: 0 }),
  published: Type.Boolean(),
  tags: Type.Array(Type.String(), { maxItems: 20 }),
  ratings: Type.Array(Type.Integer({ minimum: 1, maximum: 5 })),
  category: Type.String({ enum: ['books', 'games', 'tools'] }),
  sku: Type.String({ pattern: '^[A-Z]{3}-[0-9]{4}$' }),
  dimensions: Type.Object({ width: Type.Number(), height: Type.Number(), unit: Type.String() }),
})

/** A valid item, as the JSON body scenarios send it. */
export const itemBody = JSON.stringify({
  title: 'Mechanical keyboard',
  description: 'Tenkeyless, hot-swappable switches, PBT keycaps.',
  amount: 42,
  price: 129.5,
  published: true,
  tags: ['keyboard', 'mechanical', 'usb-c'],
  ratings: [5, 4, 5, 3],
  category: 'tools',
  sku: 'KBD-0042',
  dimensions: { width: 36.5, height: 13.2, unit: 'cm' },
})

export const ItemZod = z.object({
  title: z.string().min(1).max(200),
  description: z.string().max(2000),
  amount: z.number().int().min(0),
  price: z.number().min(0),
  published: z.boolean(),
  tags: z.array(z.string()).max(20),
  ratings: z.array(z.number().int().min(1).max(5)),
  category: z.enum(['books', 'games', 'tools']),
  sku: z.string().regex(/^[A-Z]{3}-[0-9]{4}$/),
  dimensions: z.object({ width: z.number(), height: z.number(), unit: z.string() }),
})

/** Query binding scenario: 10 fields of every kind a search form has. */
export const Search = Type.Object({
  q: Type.String({ maxLength: 100 }),
  category: Type.String({ enum: ['books', 'games', 'tools'] }),
  brand: Type.String({ maxLength: 50 }),
  tags: Type.Array(Type.String(), { maxItems: 10 }),
  minPrice: Type.Number({ minimum: 0 }),
  maxPrice: Type.Number({ minimum: 0 }),
  inStock: Type.Boolean(),
  page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
  sort: Type.String({ enum: ['price', '-price', 'name', '-name'] }),
})

/**
 * `schema` with each field tagged with its own name under `tag` (`query`, `json`): the same schema
 * as a Weft route schema, which Fastify then validates and binds through Weft.
 */
export function taggedByName<T extends TObject>(schema: T, tag: 'query' | 'json'): T {
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([name, field]) => [name, { ...field, [tag]: name }]),
  )
  return { ...schema, properties } as T
}

/** Hono's query validator gives a string for a key seen once and an array for a repeated one. */
const list = z.union([z.array(z.string()), z.string().transform((value) => [value])]).pipe(z.array(z.string()).max(10))
export const SearchZod = z.object({
  q: z.string().max(100),
  category: z.enum(['books', 'games', 'tools']),
  brand: z.string().max(50),
  tags: list,
  minPrice: z.coerce.number().min(0),
  maxPrice: z.coerce.number().min(0),
  inStock: z.stringbool({ truthy: ['true'], falsy: ['false'] }),
  page: z.coerce.number().int().min(1),
  limit: z.coerce.number().int().min(1).max(100),
  sort: z.enum(['price', '-price', 'name', '-name']),
})

/** Pagination scenario: 10,000 rows in memory, pre-sorted once per allowed sort (the "database"). */
export interface Row {
  id: number
  name: string
  price: number
}
export const rows: Row[] = Array.from({ length: 10_000 }, (_, index) => ({
  id: index + 1,
  name: `Product ${index + 1}`,
  price: ((index * 7919) % 1000) / 10 + 1,
}))
const byPrice = [...rows].sort((a, b) => a.price - b.price || a.id - b.id)
const sorted: Record<string, Row[]> = {
  id: rows,
  '-id': [...rows].reverse(),
  price: byPrice,
  '-price': [...byPrice].reverse(),
}
/** Rows sorted by `field` (`id` or `price`), descending when asked. */
export const rowsSortedBy = (field: string, descending: boolean): Row[] =>
  sorted[descending ? `-${field}` : field] ?? rows

/** The paging rules of @weft/pagination's defaults, which the hand-written peers follow. */
export const paging = { defaultLimit: 10, maxLimit: 100, allowedSorts: ['id', 'price'], defaultSort: 'id' }
