import swagger from '@fastify/swagger'
import Fastify, { type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { afterAll, describe, expect, it } from 'vitest'
import {
  fromContext,
  type PaginationConfig,
  pageAnswerSchema,
  pageInfoSchema,
  paginate,
  paginationQuerySchema,
} from './index.js'

const config: PaginationConfig = { allowedSorts: ['id', 'price', 'name'], maxLimit: 50, maxOffset: 1000 }
const Item = Type.Object({ id: Type.Integer() })

/** A paginated route; `documented` gives it the query and answer schemas (Fastify validates the query). */
async function listApp(documented: boolean, hook: 'onRequest' | 'preHandler'): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(swagger, { openapi: { info: { title: 't', version: '1' } } })
  const schema = documented
    ? { querystring: paginationQuerySchema(config), response: { 200: pageAnswerSchema(Item, config) } }
    : undefined
  app.get('/items', { [hook]: paginate(config), ...(schema ? { schema } : {}) }, async (request) => {
    const page = fromContext(request)
    if (page === undefined) throw new Error('no page')
    return { data: [{ id: page.start() + 1 }], ...page.toJSON(), links: page.links(request.url) }
  })
  await app.ready()
  return app
}

const apps: FastifyInstance[] = []
afterAll(async () => {
  for (const app of apps) await app.close()
})

describe('paginationQuerySchema / pageAnswerSchema', () => {
  it('a paginated route documents its parameters and its answer in @fastify/swagger', async () => {
    const app = await listApp(true, 'onRequest')
    apps.push(app)
    const doc = app.swagger() as {
      paths: Record<
        string,
        {
          get: { parameters: { name: string; in: string; schema: Record<string, unknown> }[] } & Record<string, unknown>
        }
      >
    }
    const get = doc.paths['/items']?.get
    const parameters = Object.fromEntries((get?.parameters ?? []).map((p) => [p.name, p]))
    expect(Object.keys(parameters).sort()).toEqual(['cursor', 'limit', 'offset', 'page', 'sort'])
    expect(parameters.limit?.schema).toMatchObject({ type: 'integer', default: 10 })
    expect(parameters.cursor?.schema).toMatchObject({ type: 'string', maxLength: 2048 })
    const pattern = new RegExp(String(parameters.sort?.schema.pattern))
    for (const sort of ['id', '-price', '-price,name', 'name,-id,price']) expect(pattern.test(sort), sort).toBe(true)
    for (const sort of ['', 'secret', 'id,secret', '--id', 'id,']) expect(pattern.test(sort), sort).toBe(false)
    const answer = JSON.stringify(get?.responses)
    expect(answer).toContain('"has_more"')
    expect(answer).toContain('"next_cursor"')
    expect(answer).toContain('"enum":["id","price","name"]')
  })

  it.each(['onRequest', 'preHandler'] as const)(
    'with the schema as the route querystring (%s hook), the answers are those of the hook alone',
    async (hook) => {
      const plain = await listApp(false, hook)
      const documented = await listApp(true, hook)
      apps.push(plain, documented)
      for (const url of [
        '/items',
        '/items?page=3&limit=20',
        '/items?offset=5&limit=3',
        '/items?page=2&offset=0',
        '/items?sort=-price,name&limit=60',
        '/items?page=-4&limit=0',
        '/items?offset=5000',
      ]) {
        const a = await plain.inject(url)
        const b = await documented.inject(url)
        expect(b.statusCode, url).toBe(a.statusCode)
        expect(b.json(), url).toEqual(a.json())
      }
    },
  )

  it('strict configs state the ranges they enforce', () => {
    const schema = paginationQuerySchema({ ...config, strict: true }) as { properties: Record<string, object> }
    expect(schema.properties.limit).toMatchObject({ minimum: 1, maximum: 50 })
    expect(schema.properties.offset).toMatchObject({ minimum: 0, maximum: 1000 })
    expect(schema.properties.page).toMatchObject({ minimum: 1 })
  })

  it("uses the config's own key names", () => {
    const schema = paginationQuerySchema({ pageKey: 'p', limitKey: 'per_page', cursorKey: 'after', sortKey: 'order' })
    expect(Object.keys(schema.properties as object).sort()).toEqual(['after', 'offset', 'order', 'p', 'per_page'])
  })

  it('pageInfoSchema describes PageInfo#toJSON()', () => {
    expect(Object.keys((pageInfoSchema() as { properties: object }).properties)).toEqual([
      'page',
      'limit',
      'offset',
      'sort',
      'cursor',
      'has_more',
      'next_cursor',
    ])
  })
})
