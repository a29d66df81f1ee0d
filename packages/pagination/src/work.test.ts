import { describeGrowth, GROWTH_FACTOR, LINEAR_BOUND, measureGrowth } from '@weft/tooling/work-growth'
import Fastify from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { resolveConfig } from './config.js'
import { encodeCursor } from './cursor.js'
import { fromContext, paginate } from './index.js'

// One route that parses everything and builds every link from the request URL, as apps do.
const app = Fastify()
app.get(
  '/items',
  { onRequest: paginate({ allowedSorts: ['id', 'price'], cursorParam: 'after', sortFingerprint: true }) },
  async (request) => {
    const page = fromContext(request)!
    page.setNextCursor({ id: 1 })
    const links = page.links(request.url)
    return { page: page.page, limit: page.limit, sort: page.sort, next: links.next?.length ?? 0 }
  },
)
afterAll(() => app.close())

const token = encodeCursor({ id: 5 }, resolveConfig({ sortFingerprint: true }), [{ field: 'id', order: 'asc' }])

/** Requests `url`, expecting `status`. */
async function request(url: string, status: number): Promise<void> {
  const res = await app.inject(url)
  expect(res.statusCode).toBe(status)
}

// Query strings of 16 KB and 128 KB: Node's header limit, and far beyond it.
const SMALL = 16 * 1024
const LARGE = GROWTH_FACTOR * SMALL

describe('work grows linearly with the query string', () => {
  it.each([
    ['a sort of commas only', (n: number) => `/items?sort=${','.repeat(n)}`, 200],
    ['a sort of blank items', (n: number) => `/items?sort=${'%20,'.repeat(n / 4)}`, 200],
    ['a sort of bare dashes', (n: number) => `/items?sort=${'-,'.repeat(n / 2)}`, 200],
    ['a sort of one huge field', (n: number) => `/items?sort=-${'a'.repeat(n)}`, 200],
    ['a sort of many unknown fields', (n: number) => `/items?sort=${'x,'.repeat(n / 2)}`, 200],
    ['a page of many digits', (n: number) => `/items?page=${'9'.repeat(n)}`, 200],
    ['a limit of many digits', (n: number) => `/items?limit=${'9'.repeat(n)}&offset=${'9'.repeat(n)}`, 200],
    ['many repeated paging keys', (n: number) => `/items?${'page=2&limit=3&'.repeat(n / 14)}`, 200],
    ['many other parameters kept by the links', (n: number) => `/items?page=2&${'q=1&'.repeat(n / 4)}`, 200],
    ['a long cursor', (n: number) => `/items?cursor=${'A'.repeat(n)}`, 400],
    ['a long cursor of dots', (n: number) => `/items?cursor=${'.'.repeat(n)}`, 400],
    ['a long cursorParam alias', (n: number) => `/items?after=${'A'.repeat(n)}`, 400],
    ['a valid cursor followed by many repeats', (n: number) => `/items?${`cursor=${token}&`.repeat(n / 40)}`, 200],
  ])('%s', async (_case, url, status) => {
    const growth = await measureGrowth(
      () => request(url(SMALL), status),
      () => request(url(LARGE), status),
    )
    expect(growth.ratio, describeGrowth(growth)).toBeLessThanOrEqual(LINEAR_BOUND)
  })

  it('answers what it read from such requests', async () => {
    const sorted = await app.inject(`/items?sort=${','.repeat(LARGE)}-price,id`)
    expect(sorted.json()).toMatchObject({
      sort: [
        { field: 'price', order: 'desc' },
        { field: 'id', order: 'asc' },
      ],
    })
    const deep = await app.inject(`/items?page=${'9'.repeat(LARGE)}&limit=5`)
    expect(deep.json()).toMatchObject({ page: Number.MAX_SAFE_INTEGER, limit: 5 })
    const long = await app.inject(`/items?cursor=${'A'.repeat(LARGE)}`)
    expect(long.json()).toMatchObject({ statusCode: 400, code: 'WEFT_CURSOR_TOO_LONG' })
  })
})
