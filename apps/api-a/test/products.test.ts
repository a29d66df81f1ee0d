import { testDatabaseKinds } from '@weft/tooling/test-db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Account, bearer, outcome, signUp, startApp, type TestApp } from './support.js'

describe.each(testDatabaseKinds())('/api/products on %s', (kind) => {
  let t: TestApp
  let owner: Account
  beforeAll(async () => {
    t = await startApp(kind, 'products')
    owner = await signUp(t.app)
  })
  afterAll(() => t?.close())

  const create = (payload: unknown, account = owner) =>
    t.app.inject({ method: 'POST', url: '/api/products', headers: bearer(account.access), payload: payload as object })

  describe('POST', () => {
    it('creates a product owned by the caller: 201 and Location', async () => {
      const res = await create({ title: 'Lamp', description: 'A desk lamp', amount: 3 })
      expect(res.statusCode).toBe(201)
      const data = res.json().data
      expect(res.headers.location).toBe(`/api/products/${data.id}`)
      expect(data).toEqual({
        id: expect.any(Number),
        title: 'Lamp',
        description: 'A desk lamp',
        amount: 3,
        owner_id: owner.id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      })
    })

    it('defaults the description to an empty string', async () => {
      const res = await create({ title: 'Plain', amount: 0 })
      expect(res.json().data.description).toBe('')
    })

    it.each([
      ['a negative amount', { title: 'x', amount: -1 }, 'amount', 'minimum'],
      ['a fractional amount', { title: 'x', amount: 1.5 }, 'amount', 'type'],
      ['an amount as a string', { title: 'x', amount: '3' }, 'amount', 'type'],
      ['a missing title', { amount: 1 }, 'title', 'required'],
      ['an empty title', { title: '', amount: 1 }, 'title', 'minLength'],
      ['an owner_id field', { title: 'x', amount: 1, owner_id: 1 }, 'owner_id', 'additionalProperties'],
    ])('answers 400 VALIDATION_FAILED for %s', async (_name, payload, field, rule) => {
      const res = await create(payload)
      expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_FAILED' })
      expect(res.json().errors).toContainEqual(expect.objectContaining({ field, rule }))
    })

    it('answers 401 UNAUTHENTICATED without a token', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/products', payload: { title: 'x', amount: 1 } })
      expect(outcome(res)).toEqual({ status: 401, code: 'UNAUTHENTICATED' })
    })
  })

  describe('GET /api/products/:id', () => {
    it('returns the product without a token', async () => {
      const id = (await create({ title: 'Readable', amount: 7 })).json().data.id
      const res = await t.app.inject({ method: 'GET', url: `/api/products/${id}` })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({ status: 'success', data: { id, title: 'Readable', amount: 7 } })
    })

    it('answers 404 NOT_FOUND for a missing product', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/products/2147483647' })
      expect(outcome(res)).toEqual({ status: 404, code: 'NOT_FOUND' })
    })

    it.each(['0', 'abc', '-5', '1;DROP TABLE products'])('answers 400 INVALID_ID for %s', async (id) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/products/${encodeURIComponent(id)}` })
      expect(outcome(res)).toEqual({ status: 400, code: 'INVALID_ID' })
    })
  })

  describe('DELETE /api/products/:id', () => {
    it('lets the owner delete it', async () => {
      const id = (await create({ title: 'Doomed', amount: 1 })).json().data.id
      const res = await t.app.inject({ method: 'DELETE', url: `/api/products/${id}`, headers: bearer(owner.access) })
      expect(res.json()).toEqual({ status: 'success', message: 'product deleted', data: null })
      expect((await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).statusCode).toBe(404)
    })

    it('answers 403 FORBIDDEN to anyone else, and the product stays', async () => {
      const id = (await create({ title: 'Mine', amount: 1 })).json().data.id
      const other = await signUp(t.app)
      const res = await t.app.inject({ method: 'DELETE', url: `/api/products/${id}`, headers: bearer(other.access) })
      expect(outcome(res)).toEqual({ status: 403, code: 'FORBIDDEN' })
      expect((await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).statusCode).toBe(200)
    })

    it('answers 404 NOT_FOUND for a missing product', async () => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: '/api/products/2147483647',
        headers: bearer(owner.access),
      })
      expect(outcome(res)).toEqual({ status: 404, code: 'NOT_FOUND' })
    })

    it('answers 401 UNAUTHENTICATED without a token', async () => {
      const res = await t.app.inject({ method: 'DELETE', url: '/api/products/1' })
      expect(outcome(res)).toEqual({ status: 401, code: 'UNAUTHENTICATED' })
    })
  })
})

describe.each(testDatabaseKinds())('GET /api/products (pagination) on %s', (kind) => {
  let t: TestApp
  /** 25 products with amounts 0..24 in a shuffled order and titles that sort differently. */
  const amounts = Array.from({ length: 25 }, (_, i) => (i * 7) % 25)

  beforeAll(async () => {
    t = await startApp(kind, 'product_list')
    const owner = await signUp(t.app)
    for (const amount of amounts) {
      await t.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: bearer(owner.access),
        payload: { title: `item ${String(99 - amount).padStart(2, '0')}`, amount },
      })
    }
  })
  afterAll(() => t?.close())

  const list = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/products${query}` })
    return { res, body: res.json() }
  }

  it('answers the first 10 by id with meta.pagination and a next link (a cursor walk: no page or offset sent)', async () => {
    const { res, body } = await list('')
    expect(res.statusCode).toBe(200)
    expect(body.data).toHaveLength(10)
    expect(body.data.map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(body.meta.pagination).toMatchObject({
      page: 1,
      limit: 10,
      offset: 0,
      sort: [{ field: 'id', order: 'asc' }],
      has_more: true,
      next_cursor: expect.any(String),
      links: { next: `/api/products?cursor=${body.meta.pagination.next_cursor}&limit=10`, prev: null },
    })
  })

  it('pages with page and limit, with prev and next links', async () => {
    const { body } = await list('?page=2&limit=5')
    expect(body.data.map((p: { id: number }) => p.id)).toEqual([6, 7, 8, 9, 10])
    expect(body.meta.pagination.links).toEqual({
      next: '/api/products?page=3&limit=5',
      prev: '/api/products?page=1&limit=5',
    })
  })

  it('says has_more false and no next link on the last page', async () => {
    const { body } = await list('?page=3&limit=10')
    expect(body.data).toHaveLength(5)
    expect(body.meta.pagination).toMatchObject({ has_more: false, next_cursor: '', links: { next: null } })
  })

  it('starts at offset', async () => {
    const { body } = await list('?offset=20&limit=10')
    expect(body.data.map((p: { id: number }) => p.id)).toEqual([21, 22, 23, 24, 25])
  })

  it('caps limit at 100 and resets page below 1', async () => {
    const { body } = await list('?limit=1000&page=-3')
    expect(body.meta.pagination).toMatchObject({ limit: 100, page: 1 })
    expect(body.data).toHaveLength(25)
  })

  it.each([
    ['-amount', (a: number[]) => [...a].sort((x, y) => y - x)],
    ['amount', (a: number[]) => [...a].sort((x, y) => x - y)],
    ['title', (a: number[]) => [...a].sort((x, y) => y - x)],
  ])('sorts by %s', async (sort, expected) => {
    const { body } = await list(`?sort=${sort}&limit=100`)
    expect(body.data.map((p: { amount: number }) => p.amount)).toEqual(expected(amounts))
  })

  it('keeps each sort right while clients ask for many different sorts in turn', async () => {
    const fields = ['id', 'title', 'amount', 'created_at']
    const sorts = fields.flatMap((a) =>
      fields.filter((b) => b !== a).flatMap((b) => [`${a},${b}`, `-${a},${b}`, `${a},-${b}`, `-${a},-${b}`]),
    )
    for (const sort of [...sorts, ...sorts.map((s) => `${s},-id`)]) {
      expect((await list(`?sort=${sort}&page=2&limit=3`)).res.statusCode).toBe(200)
    }
    const byAmount = (await list('?sort=-amount&page=2&limit=5')).body
    expect(byAmount.data.map((p: { amount: number }) => p.amount)).toEqual(
      [...amounts].sort((x, y) => y - x).slice(5, 10),
    )
    const byId = (await list('?page=2&limit=5')).body
    expect(byId.data.map((p: { id: number }) => p.id)).toEqual([6, 7, 8, 9, 10])
  })

  it.each(['password_hash', 'id;DROP TABLE products', 'owner_id', "amount'--"])(
    'ignores the sort %s that is not allowed (default sort by id)',
    async (sort) => {
      const { res, body } = await list(`?sort=${encodeURIComponent(sort)}`)
      expect(res.statusCode).toBe(200)
      expect(body.meta.pagination.sort).toEqual([{ field: 'id', order: 'asc' }])
    },
  )

  it.each(['-amount', 'title', '-created_at', 'amount,-id'])(
    'walks every product exactly once with the cursor, sorted by %s',
    async (sort) => {
      const seen: number[] = []
      let url = `?sort=${sort}&limit=4`
      for (let guard = 0; guard < 20 && url; guard++) {
        const { res, body } = await list(url)
        expect(res.statusCode).toBe(200)
        seen.push(...body.data.map((p: { id: number }) => p.id))
        const next = body.meta.pagination.next_cursor
        url = next ? `?sort=${sort}&limit=4&cursor=${next}` : ''
      }
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1))
      const { body } = await list(`?sort=${sort}&limit=100`)
      expect(seen).toEqual(body.data.map((p: { id: number }) => p.id))
    },
  )

  it('gives a next link in cursor mode that keeps the sort', async () => {
    const first = (await list('?sort=-amount&limit=3')).body
    const second = (await list(`?sort=-amount&limit=3&cursor=${first.meta.pagination.next_cursor}`)).body
    expect(second.meta.pagination.links.next).toMatch(/^\/api\/products\?sort=-amount&limit=3&cursor=/)
    expect(second.data.map((p: { amount: number }) => p.amount)).toEqual([21, 20, 19])
  })

  it.each([
    ['random text', 'not-a-cursor'],
    ['a truncated cursor', 'eyJpZCI6'],
    ['an unsigned cursor with an SQL value', Buffer.from('{"id":"1 OR 1=1"}').toString('base64url')],
    ['a cursor longer than 2048 characters', 'a'.repeat(2049)],
  ])('answers 400 INVALID_CURSOR for %s', async (_name, cursor) => {
    const { res } = await list(`?cursor=${cursor}`)
    expect(outcome(res)).toEqual({ status: 400, code: 'INVALID_CURSOR' })
  })

  it('answers 400 INVALID_CURSOR for a tampered (re-signed elsewhere) cursor', async () => {
    const next: string = (await list('?limit=2')).body.meta.pagination.next_cursor
    const [payload, ...rest] = next.split('.')
    const forged = [Buffer.from('{"id":20}').toString('base64url'), ...rest].join('.')
    expect(payload).not.toBe(forged.split('.')[0])
    expect(outcome((await list(`?limit=2&cursor=${forged}`)).res)).toEqual({ status: 400, code: 'INVALID_CURSOR' })
  })

  it('answers 400 INVALID_CURSOR for a cursor replayed with another sort', async () => {
    const next = (await list('?sort=amount&limit=2')).body.meta.pagination.next_cursor
    const { res } = await list(`?sort=title&limit=2&cursor=${next}`)
    expect(outcome(res)).toEqual({ status: 400, code: 'INVALID_CURSOR' })
  })
})
