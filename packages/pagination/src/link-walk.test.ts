import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { fromContext, PageInfo, type PageLinks, paginate } from './index.js'

/**
 * Property: from any starting request (page, offset, both, or neither), following `links.next`
 * visits every later row exactly once and ends, following `links.prev` every earlier row exactly
 * once and ends; a response never mixes modes.
 */

interface Answer {
  ids: number[]
  page: number
  offset: number
  links: PageLinks
}

/** A list of `count` rows (ids 1..count) paged the way the README says handlers page. */
function listApp(count: number): FastifyInstance {
  const ids = Array.from({ length: count }, (_, i) => i + 1)
  const app = Fastify()
  app.get('/rows', { onRequest: paginate({ maxLimit: 10 }) }, async (request): Promise<Answer> => {
    const page = fromContext(request)!
    const after = Number(page.cursorValues().id ?? 0)
    const from = page.mode === 'cursor' ? ids.filter((id) => id > after) : ids.slice(page.start())
    const rows = from.slice(0, page.limit)
    if (from.length > page.limit) {
      if (page.mode === 'cursor') page.setNextCursor({ id: rows[rows.length - 1] })
      else page.hasMore = true
    }
    return { ids: rows, page: page.page, offset: page.offset, links: page.links(request.url) }
  })
  return app
}

async function follow(app: FastifyInstance, url: string, direction: 'next' | 'prev', budget: number) {
  const pages: number[][] = []
  let link: string | null = url
  for (let i = 0; i <= budget && link !== null; i++) {
    const response = await app.inject(link)
    expect(response.statusCode).toBe(200)
    const body = response.json() as Answer
    pages.push(body.ids)
    link = body.links[direction]
  }
  if (link !== null) throw new Error(`the ${direction} links did not end`)
  return pages
}

const start = fc.record(
  {
    page: fc.integer({ min: -1, max: 12 }),
    offset: fc.integer({ min: -1, max: 40 }),
    extra: fc.constantFrom('', 'q=red&', 'sort=-id&'),
  },
  { requiredKeys: ['extra'] },
)

describe('links', () => {
  it('from any start, next links visit every later row once and prev links every earlier row once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 7 }),
        start,
        async (count, limit, s) => {
          const app = listApp(count)
          const query = [s.extra.slice(0, -1), s.page === undefined ? '' : `page=${s.page}`]
          if (s.offset !== undefined) query.push(`offset=${s.offset}`)
          query.push(`limit=${limit}`)
          const url = `/rows?${query.filter(Boolean).join('&')}`
          const forward = await follow(app, url, 'next', count + 2)
          const backward = await follow(app, url, 'prev', 100) // from beyond the end: empty pages first
          const first = forward[0] as number[]
          const firstId = first[0] ?? count + 1 // an empty first page lies beyond the last row
          // Forward from the start, in order, each once; backward, the rows before it, page by page.
          expect(forward.flat()).toEqual(Array.from({ length: count - firstId + 1 }, (_, i) => firstId + i))
          const before = backward.slice(1).reverse().flat()
          expect(before).toEqual(Array.from({ length: Math.min(firstId, count + 1) - 1 }, (_, i) => i + 1))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('a cursor walk (no page, no offset) links cursors only, has no prev, and reports page 1', async () => {
    const app = listApp(11)
    let url: string | null = '/rows?limit=4&q=red'
    const seen: number[] = []
    while (url !== null) {
      const body = (await app.inject(url)).json() as Answer
      expect(body.page).toBe(1)
      expect(body.links.prev).toBeNull()
      if (body.links.next !== null) expect(body.links.next).toMatch(/^\/rows\?limit=4&q=red&cursor=[\w-]+$/)
      seen.push(...body.ids)
      url = body.links.next
    }
    expect(seen).toEqual(Array.from({ length: 11 }, (_, i) => i + 1))
  })

  it.each([
    ['/rows?offset=5&limit=3', [6, 7, 8], '/rows?offset=8&limit=3', '/rows?offset=2&limit=3'],
    ['/rows?offset=5&page=3&limit=3', [6, 7, 8], '/rows?offset=8&limit=3', '/rows?offset=2&limit=3'],
    ['/rows?offset=2&limit=5', [3, 4, 5, 6, 7], '/rows?offset=7&limit=5', '/rows?offset=0&limit=2'],
    ['/rows?page=2&limit=3', [4, 5, 6], '/rows?page=3&limit=3', '/rows?page=1&limit=3'],
    ['/rows?page=2&offset=0&limit=3', [4, 5, 6], '/rows?page=3&limit=3', '/rows?page=1&limit=3'],
    ['/rows?offset=0&limit=3', [1, 2, 3], '/rows?offset=3&limit=3', null],
  ])('%s answers %j with next %s and prev %s', async (url, ids, next, prev) => {
    const body = (await listApp(20).inject(url)).json() as Answer
    expect(body).toMatchObject({ ids, links: { next, prev } })
  })

  it('reports the applied values: offset mode gives the page holding its first row', async () => {
    const body = (await listApp(20).inject('/rows?offset=5&page=9&limit=3')).json() as Answer
    expect(body).toMatchObject({ page: 2, offset: 5 })
  })

  it('builds offset links from a hand-made PageInfo with an offset', () => {
    const page = new PageInfo({ page: 1, limit: 5, offset: 3 })
    expect(page.nextPageURL('/products?offset=3&limit=5')).toBe('/products?offset=8&limit=5')
    expect(page.previousPageURL('/products?offset=3&limit=5')).toBe('/products?offset=0&limit=3')
  })
})
