import Fastify from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { echoApp, getJSON } from '../test/echo-app.js'
import { resolveConfig } from './config.js'
import { encodeCursor } from './cursor.js'
import { fromContext, paginate } from './index.js'

const app = echoApp({ allowedSorts: ['id', 'price', 'name'] })
afterAll(() => app.close())

const token = (values: Record<string, unknown>) => encodeCursor(values, resolveConfig(), [])

describe('paginate: page and limit', () => {
  it('applies the defaults when the query has no paging parameters', async () => {
    const { status, body } = await getJSON(app, '/items')
    expect(status).toBe(200)
    expect(body).toEqual({
      page: 1,
      limit: 10,
      offset: 0,
      sort: [{ field: 'id', order: 'asc' }],
      cursor: '',
      has_more: false,
      next_cursor: '',
      start: 0,
    })
  })

  it('reads page and limit and computes start as (page - 1) x limit', async () => {
    const { body } = await getJSON(app, '/items?page=3&limit=20')
    expect(body).toMatchObject({ page: 3, limit: 20, start: 40 })
  })

  it.each(['0', '-4'])('resets page %s to 1', async (page) => {
    expect((await getJSON(app, `/items?page=${page}`)).body).toMatchObject({ page: 1, start: 0 })
  })

  it.each(['abc', '10abc', '1e3', '1.5', ''])('uses the default page for unparsable %j', async (page) => {
    expect((await getJSON(app, `/items?page=${page}`)).body).toMatchObject({ page: 1 })
  })

  it('caps limit at maxLimit', async () => {
    expect((await getJSON(app, '/items?limit=500')).body).toMatchObject({ limit: 100 })
  })

  it.each(['0', '-1', 'ten', '2.5'])('uses the default limit for %j', async (limit) => {
    expect((await getJSON(app, `/items?limit=${limit}`)).body).toMatchObject({ limit: 10 })
  })

  it('reads the first value of a repeated key', async () => {
    expect((await getJSON(app, '/items?page=4&page=9')).body).toMatchObject({ page: 4 })
  })

  it('caps start at Number.MAX_SAFE_INTEGER for huge pages', async () => {
    const { body } = await getJSON(app, '/items?page=9007199254740991&limit=100')
    expect(body.start).toBe(Number.MAX_SAFE_INTEGER)
  })
})

describe('paginate: defaultPage', () => {
  const third = echoApp({ defaultPage: 3, allowedSorts: ['id'] })
  afterAll(() => third.close())

  it('is the page of a request that names none, and start() follows it', async () => {
    const { status, body } = await getJSON(third, '/items')
    expect(status).toBe(200)
    expect(body).toMatchObject({ page: 3, limit: 10, offset: 0, cursor: '', start: 20 })
  })

  it('applies with a limit and a sort, and to an unparsable page', async () => {
    expect((await getJSON(third, '/items?limit=5&sort=id')).body).toMatchObject({ page: 3, limit: 5, start: 10 })
    expect((await getJSON(third, '/items?page=abc&limit=5')).body).toMatchObject({ page: 3, start: 10 })
  })

  it('gives way to a page or an offset the request names', async () => {
    expect((await getJSON(third, '/items?page=1')).body).toMatchObject({ page: 1, start: 0 })
    expect((await getJSON(third, '/items?offset=0')).body).toMatchObject({ page: 1, offset: 0, start: 0 })
    expect((await getJSON(third, '/items?offset=7')).body).toMatchObject({ offset: 7, start: 7 })
  })

  it('links from it: page links around defaultPage, and a cursor walk that goes on from its rows', async () => {
    const app = Fastify()
    app.get('/items', { onRequest: paginate({ defaultPage: 3 }) }, async (request) => {
      const page = fromContext(request)!
      const pageLinks = { next: page.nextPageURL(request.url), prev: page.previousPageURL(request.url) }
      page.setNextCursor({ id: page.start() + page.limit })
      return { pageLinks, links: page.links(request.url), token: page.nextCursor, mode: page.mode }
    })
    const { status, body } = await getJSON(app, '/items?limit=5')
    expect(status).toBe(200)
    expect(body.pageLinks).toEqual({ next: '/items?limit=5&page=4', prev: '/items?limit=5&page=2' })
    expect(body.mode).toBe('cursor')
    expect(body.links).toEqual({ next: `/items?limit=5&cursor=${body.token}`, prev: null })
  })

  it('is not used once a cursor token positions the rows: page 1, start() 0', async () => {
    const cursor = token({ id: 42 })
    expect((await getJSON(third, `/items?cursor=${cursor}`)).body).toMatchObject({ cursor, page: 1, start: 0 })
  })
})

describe('paginate: offset', () => {
  it('uses the offset as start when it is above 0, reporting the page too', async () => {
    expect((await getJSON(app, '/items?offset=25&page=3')).body).toMatchObject({ offset: 25, page: 3, start: 25 })
  })

  it('resets a negative offset to 0 and falls back to the page', async () => {
    expect((await getJSON(app, '/items?offset=-5&page=2')).body).toMatchObject({ offset: 0, start: 10 })
  })

  it('ignores an unparsable offset', async () => {
    expect((await getJSON(app, '/items?offset=5x')).body).toMatchObject({ offset: 0, start: 0 })
  })
})

describe('paginate: sort', () => {
  it('reads the allowed sort fields in order', async () => {
    expect((await getJSON(app, '/items?sort=-price,name,secret')).body.sort).toEqual([
      { field: 'price', order: 'desc' },
      { field: 'name', order: 'asc' },
    ])
  })

  it('ignores the request sort without allowedSorts', async () => {
    const plain = echoApp({ defaultSort: 'created' })
    expect((await getJSON(plain, '/items?sort=-price')).body.sort).toEqual([{ field: 'created', order: 'asc' }])
  })
})

describe('paginate: cursor', () => {
  it('switches to cursor mode, reporting page 1 (never 0) and offset 0, both unused', async () => {
    const cursor = token({ id: 42 })
    const { status, body } = await getJSON(app, `/items?cursor=${cursor}&page=3&offset=7&limit=5`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ cursor, page: 1, offset: 0, limit: 5, start: 0 })
  })

  it('reads the cursorParam alias when cursorKey is absent', async () => {
    const aliased = echoApp({ cursorParam: 'after' })
    const cursor = token({ id: 1 })
    expect((await getJSON(aliased, `/items?after=${cursor}`)).body).toMatchObject({ cursor, page: 1 })
  })

  it('prefers cursorKey over the cursorParam alias', async () => {
    const aliased = echoApp({ cursorParam: 'after' })
    const [first, second] = [token({ id: 1 }), token({ id: 2 })]
    expect((await getJSON(aliased, `/items?after=${second}&cursor=${first}`)).body).toMatchObject({ cursor: first })
  })

  it('treats an empty cursor as no cursor', async () => {
    expect((await getJSON(app, '/items?cursor=&page=2')).body).toMatchObject({ cursor: '', page: 2 })
  })

  it('accepts a cursor of exactly 2048 characters', async () => {
    const cursor = token({ pad: 'x'.repeat(1526) })
    expect(cursor).toHaveLength(2048)
    expect((await getJSON(app, `/items?cursor=${cursor}`)).status).toBe(200)
  })

  it('answers 400 WEFT_CURSOR_TOO_LONG above 2048 characters', async () => {
    const { status, body } = await getJSON(app, `/items?cursor=${'A'.repeat(2049)}`)
    expect(status).toBe(400)
    expect(body).toMatchObject({ statusCode: 400, code: 'WEFT_CURSOR_TOO_LONG' })
  })

  it.each([
    ['not base64url', '%25%25%25'],
    ['standard base64 characters', 'eyJpZCI6+NX0/'],
    ['impossible base64 length', 'eyJpZ'],
    ['not JSON', Buffer.from('id=5').toString('base64url')],
    ['a JSON array', Buffer.from('[1,2]').toString('base64url')],
    ['a JSON string', Buffer.from('"id"').toString('base64url')],
    ['JSON null', Buffer.from('null').toString('base64url')],
  ])('answers 400 WEFT_CURSOR_INVALID for %s', async (_, cursor) => {
    const { status, body } = await getJSON(app, `/items?cursor=${cursor}`)
    expect(status).toBe(400)
    expect(body).toMatchObject({ statusCode: 400, code: 'WEFT_CURSOR_INVALID' })
  })

  it('renders cursor errors through the app error handler', async () => {
    const custom = echoApp()
    custom.setErrorHandler((error: { statusCode?: number; code?: string }, _request, reply) => {
      reply.code(error.statusCode ?? 500).send({ problem: error.code })
    })
    const { status, body } = await getJSON(custom, '/items?cursor=***')
    expect(status).toBe(400)
    expect(body).toEqual({ problem: 'WEFT_CURSOR_INVALID' })
  })
})
