/**
 * The query route of the benchmark, as Fastify's own querystring schema serves it and as bind()
 * serves it, with the inputs both get. Shared by bench/run.ts (micro rows, profiling) and
 * bench/route-worker.ts (one route per process).
 */
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { bind, weftBinding } from '../src/index.js'

export const Search = Type.Object({
  page: Type.Integer({ minimum: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100 }),
  offset: Type.Integer({ minimum: 0 }),
  active: Type.Boolean(),
  featured: Type.Boolean(),
  q: Type.String({ maxLength: 100 }),
  sort: Type.Union([Type.Literal('price'), Type.Literal('name')]),
  colors: Type.Array(Type.String()),
  sizes: Type.Array(Type.Integer()),
  price: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
})

export const raw =
  'page=2&limit=50&offset=100&active=true&featured=false&q=running%20shoes&sort=price' +
  '&colors=red&colors=blue&sizes=40&sizes=41&sizes=42&price[min]=10&price[max]=99'

// Fastify's querystring schema gets flat keys: its parser has no nesting
const FlatSearch = Type.Object({
  ...Search.properties,
  price: undefined as never,
  'price[min]': Type.Integer(),
  'price[max]': Type.Integer(),
})
delete (FlatSearch.properties as Record<string, unknown>).price
;(FlatSearch as unknown as { required: string[] }).required = Object.keys(FlatSearch.properties)

// The same schema as a route's `schema.querystring`, validated and bound by Weft: its fields carry
// their `query` tags (a schema with none stays with Fastify's Ajv)
const TaggedSearch = Type.Object(
  Object.fromEntries(
    Object.entries(Search.properties).map(([name, field]) => [name, { ...field, query: name }]),
  ) as unknown as typeof Search.properties,
)

/** The routes compared, by the name of their row. */
export const routes = {
  'route: Fastify querystring schema': 'fastify',
  'route: Weft querystring schema': 'schema',
  'route: bind().query()': 'bind',
  'route: bind().query(), multipart: false': 'lean',
} as const

export type RouteVariant = (typeof routes)[keyof typeof routes]

/** An app serving `GET /?<raw>` the way `variant` does. */
export async function routeApp(variant: RouteVariant): Promise<FastifyInstance> {
  const app = Fastify()
  if (variant === 'fastify') {
    app.get('/', { schema: { querystring: FlatSearch } }, async (request) => request.query)
  } else if (variant === 'schema') {
    await app.register(weftBinding)
    app.get('/', { schema: { querystring: TaggedSearch } }, async (request) => request.query)
  } else {
    await app.register(weftBinding, variant === 'lean' ? { multipart: false } : {})
    app.get('/', async (request) => bind(request).query(Search))
  }
  await app.ready()
  return app
}
