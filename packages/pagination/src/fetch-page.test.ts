import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import {
  type FetchPageOptions,
  fetchPage,
  PageInfo,
  type PageLinks,
  type PageQuery,
  pageAnswerSchema,
  paginate,
} from './index.js'

interface Product {
  id: number
  name: string
  price: number
}

// 23 products, prices repeating (ties that a cursor on price alone would skip or repeat)
const products: Product[] = Array.from({ length: 23 }, (_, i) => ({
  id: i + 1,
  name: `p${(i * 7) % 23}`,
  price: [5, 1, 3, 1, 5][i % 5] as number,
}))

/** What an app's data layer does with a PageQuery: sort, skip the rows up to `after`, offset, limit. */
function list({ offset, limit, sort, after }: PageQuery): Product[] {
  const compare = (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    for (const { field, order } of sort) {
      const x = a[field] as number | string
      const y = b[field] as number | string
      if (x !== y) return (x < y ? -1 : 1) * (order === 'desc' ? -1 : 1)
    }
    return 0
  }
  const sorted = [...products].sort((a, b) => compare({ ...a }, { ...b }))
  const rest = after === undefined ? sorted : sorted.filter((row) => compare({ ...row }, after) > 0)
  return rest.slice(offset, offset + limit)
}

function appWith(options: FetchPageOptions<Product> = { unique: 'id' }): FastifyInstance {
  const paging = paginate({ allowedSorts: ['id', 'price', 'name'], maxLimit: 50 })
  const app = Fastify()
  app.get('/products', { onRequest: paging }, (request) => fetchPage(paging.fromContext(request), list, options))
  return app
}

/** Follows `links.next` from `url` until it is null; returns every answer. */
async function walk(app: FastifyInstance, url: string) {
  const answers: { data: Product[]; has_more: boolean; next_cursor: string; links: PageLinks }[] = []
  for (let next: string | null = url; next !== null; ) {
    const res: { statusCode: number; json(): (typeof answers)[number] } = await app.inject(next)
    expect(res.statusCode).toBe(200)
    const answer = res.json()
    answers.push(answer)
    next = answer.links.next
    expect(answers.length).toBeLessThan(50)
  }
  return answers
}

describe('fetchPage', () => {
  it('page mode: data, has_more and links with no flag set by hand; next is null on the last page', async () => {
    const app = appWith()
    const first = (await app.inject('/products?page=1&limit=10')).json()
    expect(first.data.map((p: Product) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(first).toMatchObject({ page: 1, limit: 10, has_more: true, next_cursor: '' })
    expect(first.links).toEqual({ next: '/products?page=2&limit=10', prev: null })
    const last = (await app.inject('/products?page=3&limit=10')).json()
    expect(last.data.map((p: Product) => p.id)).toEqual([21, 22, 23])
    expect(last).toMatchObject({ has_more: false, links: { next: null, prev: '/products?page=2&limit=10' } })
    const pages = await walk(app, '/products?page=1&limit=5')
    expect(pages.flatMap((p) => p.data.map((row: Product) => row.id))).toEqual(products.map((p) => p.id))
  })

  it('page mode: a page that ends exactly at the last row has no next link', async () => {
    const app = appWith()
    const res = (await app.inject('/products?page=1&limit=23')).json()
    expect(res.data).toHaveLength(23)
    expect(res).toMatchObject({ has_more: false, links: { next: null, prev: null } })
  })

  it('offset mode: links carry offsets and the walk visits every row once', async () => {
    const app = appWith()
    const res = (await app.inject('/products?offset=20&limit=5')).json()
    expect(res.data.map((p: Product) => p.id)).toEqual([21, 22, 23])
    expect(res).toMatchObject({ has_more: false, links: { next: null, prev: '/products?offset=15&limit=5' } })
    const pages = await walk(app, '/products?offset=2&limit=4&sort=-price')
    const ids = pages.flatMap((p) => p.data.map((row: Product) => row.id))
    expect(ids).toEqual(list({ offset: 2, limit: 100, sort: appWithSort('-price'), after: undefined }).map((p) => p.id))
  })

  it('cursor mode: following next_cursor over ties ends and visits every row exactly once, in order', async () => {
    const app = appWith()
    for (const sort of ['-price', 'price,-name', 'name', '-id', 'price']) {
      for (const limit of [1, 4, 7, 23, 30]) {
        const pages = await walk(app, `/products?limit=${limit}&sort=${sort}`)
        const ids = pages.flatMap((p) => p.data.map((row: Product) => row.id))
        const expected = list({ offset: 0, limit: 100, sort: appWithSort(sort), after: undefined }).map((p) => p.id)
        expect(ids, `sort=${sort} limit=${limit}`).toEqual(expected)
        expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: '', links: { next: null, prev: null } })
        for (const page of pages.slice(0, -1)) {
          expect(page.has_more).toBe(true)
          expect(page.links.next).toBe(`/products?limit=${limit}&sort=${sort}&cursor=${page.next_cursor}`)
        }
      }
    }
  })

  it("cursor mode: the cursor holds the last row's sort values and the unique field", async () => {
    const app = appWith()
    const res = (await app.inject('/products?limit=2&sort=-price')).json()
    // the unique field follows the first sort field's direction
    expect(res.data).toEqual([products[20], products[19]])
    const decoded = JSON.parse(Buffer.from(res.next_cursor, 'base64url').toString('utf8'))
    expect(decoded).toEqual({ price: 5, id: 20 })
  })

  it('cursor mode: cursorOf chooses the values; links: false leaves the links out', async () => {
    const app = appWith({ cursorOf: (row) => ({ id: row.id }), links: false })
    const res = (await app.inject('/products?limit=3')).json()
    expect(res.links).toBeUndefined()
    expect(JSON.parse(Buffer.from(res.next_cursor, 'base64url').toString('utf8'))).toEqual({ id: 3 })
    const next = (await app.inject(`/products?limit=3&cursor=${res.next_cursor}`)).json()
    expect(next.data.map((p: Product) => p.id)).toEqual([4, 5, 6])
  })

  it('answers what pageAnswerSchema describes, through a response schema', async () => {
    const config = { allowedSorts: ['id', 'price'] }
    const paging = paginate(config)
    const app = Fastify()
    const Product = {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' }, price: { type: 'number' } },
      required: ['id', 'name', 'price'],
    }
    app.get(
      '/products',
      { onRequest: paging, schema: { response: { 200: pageAnswerSchema(Product, config) } } },
      (request) => fetchPage(paging.fromContext(request), list, { unique: 'id' }),
    )
    const res = await app.inject('/products?limit=20')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ data: products.slice(0, 20), has_more: true, links: { prev: null } })
    expect(res.json().links.next).toMatch(/^\/products\?limit=20&cursor=/)
  })

  it('works on a PageInfo made by hand, with a base URL for the links', async () => {
    const page = new PageInfo({ page: 2, limit: 10 })
    const answer = await fetchPage(page, list, { links: '/products?q=x' })
    expect(answer.data.map((p) => p.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
    expect(answer.links).toEqual({ next: '/products?q=x&page=3&limit=10', prev: '/products?q=x&page=1&limit=10' })
    expect(page.hasMore).toBe(true)
  })
})

function appWithSort(sort: string): PageQuery['sort'] {
  const fields: PageQuery['sort'] = sort
    .split(',')
    .map((item) => (item.startsWith('-') ? { field: item.slice(1), order: 'desc' } : { field: item, order: 'asc' }))
  if (!fields.some((f) => f.field === 'id')) fields.push({ field: 'id', order: fields[0]?.order ?? 'asc' })
  return fields
}
