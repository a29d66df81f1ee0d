import Fastify from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import { fromContext, type PageInfo, paginate, weftPagination } from './index.js'

/** Answers which ways of asking `fromContext` found the request's PageInfo (and the same one). */
function sources(hook: ReturnType<typeof paginate>) {
  const app = Fastify()
  app.get('/items', { onRequest: hook }, async (request, reply) => {
    const fromRequest = fromContext(request)
    const ctx = { request: () => request, response: () => reply }
    const same = (found: PageInfo | undefined) => found !== undefined && found === fromRequest
    await new Promise((resolve) => setTimeout(resolve, 1))
    return {
      request: fromRequest !== undefined,
      reply: same(fromContext(reply)),
      ctx: same(fromContext(ctx)),
      raw: same(fromContext(request.raw)),
      none: same(fromContext()),
    }
  })
  return app
}

describe('fromContext', () => {
  // First in the file: the warning is emitted once per process, before any hook enables asyncContext.
  it('by default finds it by request but not without argument, and warns once about the latter', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
    const response = await sources(paginate()).inject('/items')
    await sources(paginate()).inject('/items')
    expect(response.json()).toEqual({ request: true, reply: true, ctx: true, raw: true, none: false })
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ code: 'WEFT_PAGINATION_NO_ASYNC_CONTEXT' })
    warn.mockRestore()
  })

  it('finds the PageInfo from the request, reply, a Ctx, the raw message and, with asyncContext, the current request', async () => {
    const response = await sources(paginate({ asyncContext: true })).inject('/items?page=2')
    expect(response.json()).toEqual({ request: true, reply: true, ctx: true, raw: true, none: true })
  })

  it('keeps concurrent requests apart when called without argument', async () => {
    const app = Fastify()
    app.get('/items', { onRequest: paginate({ asyncContext: true }) }, async () => {
      const before = fromContext()?.page
      await new Promise((resolve) => setTimeout(resolve, 5))
      return { before, after: fromContext()?.page }
    })
    const pages = await Promise.all([1, 2, 3, 4].map((page) => app.inject(`/items?page=${page}`)))
    expect(pages.map((r) => r.json())).toEqual([1, 2, 3, 4].map((page) => ({ before: page, after: page })))
  })

  it('returns undefined outside a request and for objects the hook never saw', () => {
    expect(fromContext()).toBeUndefined()
    expect(fromContext({ request: () => ({ raw: {} as never }) })).toBeUndefined()
  })

  it('returns undefined when next() skips the request', async () => {
    const app = Fastify()
    const hook = paginate({ next: (request) => request.headers['x-skip'] === '1', cursorKey: 'c', asyncContext: true })
    app.get('/items', { onRequest: hook }, async (request) => ({
      byRequest: fromContext(request) ?? null,
      current: fromContext() ?? null,
    }))
    const skipped = await app.inject({ url: '/items?c=***', headers: { 'x-skip': '1' } })
    expect(skipped.statusCode).toBe(200)
    expect(skipped.json()).toEqual({ byRequest: null, current: null })
    const handled = await app.inject({ url: '/items?page=2' })
    expect(handled.json().byRequest).toMatchObject({ page: 2 })
  })
})

describe('weftPagination plugin', () => {
  it('applies the config to every route of the scope it is registered in', async () => {
    const app = Fastify()
    await app.register(async (scope) => {
      await scope.register(weftPagination, { limitKey: 'size', maxLimit: 5 })
      scope.get('/a', async (request) => fromContext(request)?.limit ?? null)
      scope.get('/b', async (request) => fromContext(request)?.limit ?? null)
    })
    app.get('/outside', async (request) => fromContext(request)?.limit ?? null)
    const responses = await Promise.all(['/a?size=50', '/b?size=3', '/outside?size=3'].map((u) => app.inject(u)))
    expect(responses.map((r) => r.json())).toEqual([5, 3, null])
  })

  it('answers bad cursors with 400 before the body is read', async () => {
    const app = Fastify()
    await app.register(weftPagination)
    app.post('/items', async () => 'handled')
    const response = await app.inject({ method: 'POST', url: '/items?cursor=!!', payload: { a: 1 } })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('WEFT_CURSOR_INVALID')
  })

  it('keeps fromContext() without argument working after the body was parsed', async () => {
    const app = Fastify()
    await app.register(weftPagination, { asyncContext: true })
    app.post('/search', async (request) => ({ body: request.body, page: fromContext()?.page ?? null }))
    const response = await app.inject({ method: 'POST', url: '/search?page=7', payload: { q: 'shoes' } })
    expect(response.json()).toEqual({ body: { q: 'shoes' }, page: 7 })
  })

  it("with hook: 'preHandler' lets schema validation answer before pagination", async () => {
    const app = Fastify()
    await app.register(weftPagination, { hook: 'preHandler' })
    const schema = { body: { type: 'object', required: ['q'] } }
    app.post('/search', { schema }, async () => 'handled')
    const response = await app.inject({ method: 'POST', url: '/search?cursor=!!', payload: {} })
    expect(response.json()).toMatchObject({ statusCode: 400, code: 'FST_ERR_VALIDATION' })
  })

  it("with hook: 'preHandler' stores the PageInfo for the handler", async () => {
    const app = Fastify()
    await app.register(weftPagination, { hook: 'preHandler', asyncContext: true })
    app.post('/search', async (request) => ({ body: request.body, page: fromContext()?.page ?? null }))
    const response = await app.inject({ method: 'POST', url: '/search?page=7', payload: { q: 'shoes' } })
    expect(response.json()).toEqual({ body: { q: 'shoes' }, page: 7 })
  })
})
