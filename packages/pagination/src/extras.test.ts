import Fastify from 'fastify'
import { afterAll, describe, expect, it } from 'vitest'
import { echoApp, getJSON } from '../test/echo-app.js'
import { fromContext, type PaginationConfig, paginate } from './index.js'

/** `GET /items` answers with a next cursor for `{ id: 10 }` and the cursor values it received. */
function issuingApp(config: PaginationConfig) {
  const app = Fastify()
  app.get('/items', { onRequest: paginate(config) }, async (request) => {
    const page = fromContext(request)!
    const received = page.cursorValues()
    page.setNextCursor({ id: 10 })
    return { received, next: page.nextCursor, link: page.nextCursorURL(request.url) }
  })
  return app
}

describe('cursorSecret', () => {
  const app = issuingApp({ cursorSecret: 'k1' })
  afterAll(() => app.close())

  it('accepts the tokens it signed', async () => {
    const { next } = (await getJSON(app, '/items')).body
    const { status, body } = await getJSON(app, `/items?cursor=${next}`)
    expect(status).toBe(200)
    expect(body.received).toEqual({ id: 10 })
  })

  it('rejects a tampered payload with 400 WEFT_CURSOR_INVALID', async () => {
    const { next } = (await getJSON(app, '/items')).body as { next: string }
    const forged = `${Buffer.from('{"id":99}').toString('base64url')}${next.slice(next.indexOf('.'))}`
    const { status, body } = await getJSON(app, `/items?cursor=${forged}`)
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'WEFT_CURSOR_INVALID' })
  })

  it('rejects an unsigned token', async () => {
    const unsigned = Buffer.from('{"id":10}').toString('base64url')
    expect((await getJSON(app, `/items?cursor=${unsigned}`)).status).toBe(400)
  })

  it('rejects a token signed with another secret, and accepts an old secret while rotating', async () => {
    const old = issuingApp({ cursorSecret: 'k0' })
    const { next } = (await getJSON(old, '/items')).body
    expect((await getJSON(app, `/items?cursor=${next}`)).status).toBe(400)
    const rotating = issuingApp({ cursorSecret: ['k1', 'k0'] })
    expect((await getJSON(rotating, `/items?cursor=${next}`)).status).toBe(200)
  })
})

describe('sortFingerprint', () => {
  const app = issuingApp({ sortFingerprint: true, allowedSorts: ['id', 'price'] })
  afterAll(() => app.close())

  it('accepts a cursor replayed with the same sort, carried along by nextCursorURL', async () => {
    const { link } = (await getJSON(app, '/items?sort=-price')).body as { link: string }
    expect(link).toContain('sort=-price')
    expect((await getJSON(app, link)).status).toBe(200)
  })

  it('rejects a cursor replayed with another sort', async () => {
    const { next } = (await getJSON(app, '/items?sort=-price')).body
    const { status, body } = await getJSON(app, `/items?sort=price&cursor=${next}`)
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'WEFT_CURSOR_INVALID' })
    expect(body.message).toMatch(/different sort/)
  })

  it('still accepts a cursor after hundreds of other sorts were fingerprinted', async () => {
    const many = issuingApp({ sortFingerprint: true, allowedSorts: Array.from({ length: 300 }, (_, i) => `f${i}`) })
    const { next } = (await getJSON(many, '/items?sort=f0')).body
    for (let i = 1; i < 300; i++) expect((await getJSON(many, `/items?sort=-f${i}`)).status).toBe(200)
    expect((await getJSON(many, `/items?sort=f0&cursor=${next}`)).status).toBe(200)
    expect((await getJSON(many, `/items?sort=f1&cursor=${next}`)).status).toBe(400)
    await many.close()
  })

  it('works together with cursorSecret', async () => {
    const both = issuingApp({ sortFingerprint: true, cursorSecret: 's', allowedSorts: ['id', 'price'] })
    const { next } = (await getJSON(both, '/items?sort=price')).body
    expect((await getJSON(both, `/items?sort=price&cursor=${next}`)).status).toBe(200)
    expect((await getJSON(both, `/items?sort=id&cursor=${next}`)).status).toBe(400)
  })
})

describe('strict', () => {
  const app = echoApp({ strict: true, maxLimit: 50 })
  afterAll(() => app.close())

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['limit=51', 'limit'],
    ['limit=0', 'limit'],
    ['limit=1e3', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1.5', 'offset'],
  ])('answers 400 WEFT_PAGINATION_INVALID for %s', async (query, field) => {
    const { status, body } = await getJSON(app, `/items?${query}`)
    expect(status).toBe(400)
    expect(body).toMatchObject({ statusCode: 400, code: 'WEFT_PAGINATION_INVALID' })
    expect(body.message).toContain(`"${field}"`)
  })

  it('still applies defaults for missing and empty parameters', async () => {
    expect((await getJSON(app, '/items?page=&limit=')).body).toMatchObject({ page: 1, limit: 10 })
  })

  it('names the configured key of the offending parameter', async () => {
    const custom = echoApp({ strict: true, limitKey: 'size' })
    expect((await getJSON(custom, '/items?size=x')).body.message).toContain('"size"')
  })
})

describe('maxOffset', () => {
  it('clamps deep offsets and pages', async () => {
    const app = echoApp({ maxOffset: 1000 })
    expect((await getJSON(app, '/items?offset=5000')).body).toMatchObject({ offset: 1000, start: 1000 })
    expect((await getJSON(app, '/items?page=500&limit=10')).body).toMatchObject({ page: 101, start: 1000 })
    expect((await getJSON(app, '/items?page=100&limit=10')).body).toMatchObject({ page: 100, start: 990 })
  })

  it('rejects deep offsets and pages with strict', async () => {
    const app = echoApp({ maxOffset: 1000, strict: true })
    expect((await getJSON(app, '/items?offset=1001')).status).toBe(400)
    expect((await getJSON(app, '/items?page=102&limit=10')).body).toMatchObject({ code: 'WEFT_PAGINATION_INVALID' })
    expect((await getJSON(app, '/items?page=101&limit=10')).status).toBe(200)
  })
})

describe('links with a custom config', () => {
  it('the short forms use the keys of the config that produced the PageInfo', async () => {
    const app = Fastify()
    const hook = paginate({ pageKey: 'p', limitKey: 'n', offsetKey: 'skip', cursorKey: 'after', cursorParam: 'c' })
    app.get('/items', { onRequest: hook }, async (request) => {
      const page = fromContext(request)!
      const base = '/items?p=2&n=5&skip=3&c=x&after=y&q=1'
      const next = page.nextPageURL(base)
      page.setNextCursor({ id: 1 })
      return { next, cursor: page.nextCursorURL(base), token: page.nextCursor }
    })
    const { body } = await getJSON(app, '/items?p=2&n=5')
    expect(body.next).toBe('/items?p=3&n=5&q=1')
    expect(body.cursor).toBe(`/items?n=5&after=${body.token}&q=1`)
  })
})

describe('PaginationInvalidError', () => {
  it('carries the offending query key as field', async () => {
    const app = echoApp({ strict: true, offsetKey: 'skip' })
    app.setErrorHandler((error: { statusCode?: number; field?: string }, _request, reply) => {
      reply.code(error.statusCode ?? 500).send({ field: error.field })
    })
    expect(await getJSON(app, '/items?skip=-3')).toEqual({ status: 400, body: { field: 'skip' } })
  })
})
