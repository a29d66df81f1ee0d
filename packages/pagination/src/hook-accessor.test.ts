import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { fromContext, PageInfoMissingError, paginate, weftPagination } from './index.js'

describe("a paginate() hook's own fromContext", () => {
  it('returns the PageInfo the hook stored, from the request, the reply or the raw request', async () => {
    const paging = paginate({ allowedSorts: ['id', 'price'] })
    const app = Fastify()
    app.get('/items', { onRequest: paging }, async (request, reply) => {
      const page = paging.fromContext(request)
      expect(paging.fromContext(reply)).toBe(page)
      expect(paging.fromContext(request.raw)).toBe(page)
      expect(fromContext(request)).toBe(page)
      return { limit: page.limit, sort: page.sort }
    })
    const res = await app.inject('/items?limit=5&sort=-price')
    expect(res.json()).toEqual({ limit: 5, sort: [{ field: 'price', order: 'desc' }] })
  })

  it('answers a 500 naming the mistake on a route without the hook', async () => {
    const paging = paginate()
    const app = Fastify()
    app.get('/items', async (request) => paging.fromContext(request).limit)
    const res = await app.inject('/items')
    expect(res.statusCode).toBe(500)
    expect(res.json()).toMatchObject({
      code: 'WEFT_PAGINATION_MISSING',
      message: expect.stringContaining('this paginate() hook did not run for the request'),
    })
  })

  it('answers a 500 when its next skipped the request', async () => {
    const paging = paginate({ next: () => true })
    const app = Fastify()
    app.get('/items', { onRequest: paging }, async (request) => paging.fromContext(request).limit)
    expect((await app.inject('/items')).json().code).toBe('WEFT_PAGINATION_MISSING')
  })

  it('does not hand out the PageInfo another hook made (another config, other sort names)', async () => {
    const paging = paginate({ allowedSorts: ['id'] })
    const app = Fastify()
    await app.register(weftPagination, { allowedSorts: ['name'] })
    let caught: unknown
    app.get('/items', async (request) => {
      try {
        return paging.fromContext(request)
      } catch (error) {
        caught = error
        throw error
      }
    })
    expect((await app.inject('/items')).statusCode).toBe(500)
    expect(caught).toBeInstanceOf(PageInfoMissingError)
  })
})
