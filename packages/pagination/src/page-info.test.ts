import { describe, expect, it } from 'vitest'
import { CursorInvalidError, CursorTooLongError, PageInfo } from './index.js'

describe('PageInfo', () => {
  it('starts with the documented defaults when built by hand', () => {
    expect(new PageInfo().toJSON()).toEqual({
      page: 1,
      limit: 10,
      offset: 0,
      sort: [{ field: 'id', order: 'asc' }],
      cursor: '',
      has_more: false,
      next_cursor: '',
    })
  })

  describe('start()', () => {
    it.each([
      [{ page: 1, limit: 10 }, 0],
      [{ page: 4, limit: 25 }, 75],
      [{ page: 4, limit: 25, offset: 3 }, 3],
      [{ page: 4, limit: 25, cursor: 'eyJpZCI6MX0' }, 0],
      [{ page: 2 ** 52, limit: 100 }, Number.MAX_SAFE_INTEGER],
    ])('gives %j → %d', (init, start) => {
      expect(new PageInfo(init).start()).toBe(start)
    })
  })

  it('sortBy() appends a sort field and chains', () => {
    const page = new PageInfo({ sort: [] })
    expect(page.sortBy('price', 'desc').sortBy('id', 'asc')).toBe(page)
    expect(page.sort).toEqual([
      { field: 'price', order: 'desc' },
      { field: 'id', order: 'asc' },
    ])
  })

  describe('cursor tokens', () => {
    it('setNextCursor() encodes base64url JSON and sets hasMore', () => {
      const page = new PageInfo()
      page.setNextCursor({ id: 42, name: 'Zoë' })
      expect(page.hasMore).toBe(true)
      expect(page.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/)
      expect(JSON.parse(Buffer.from(page.nextCursor, 'base64url').toString())).toEqual({ id: 42, name: 'Zoë' })
    })

    it('cursorValues() decodes the request token', () => {
      const issuer = new PageInfo()
      issuer.setNextCursor({ id: 7, at: '2024-01-01' })
      expect(new PageInfo({ cursor: issuer.nextCursor }).cursorValues()).toEqual({ id: 7, at: '2024-01-01' })
    })

    it('cursorValues() is empty without a cursor', () => {
      expect(new PageInfo().cursorValues()).toEqual({})
    })

    it('cursorValues() throws CursorInvalidError for a bad hand-set token', () => {
      expect(() => new PageInfo({ cursor: '@@' }).cursorValues()).toThrow(CursorInvalidError)
    })

    it('setNextCursor() throws above 2048 characters and leaves the page unchanged', () => {
      const page = new PageInfo()
      let error: unknown
      try {
        page.setNextCursor({ blob: 'x'.repeat(2000) })
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(CursorTooLongError)
      expect(error).toMatchObject({ code: 'WEFT_CURSOR_TOO_LONG', statusCode: 500 })
      expect([page.hasMore, page.nextCursor]).toEqual([false, ''])
    })
  })

  describe('links', () => {
    const page = new PageInfo({ page: 2, limit: 20 })

    it.each([
      ['/items', '/items?page=3&limit=20'],
      ['/items?', '/items?page=3&limit=20'],
      ['/items?q=a%20b&page=2&tag=x', '/items?q=a%20b&page=3&tag=x&limit=20'],
      ['/items?limit=5&page=1&page=9', '/items?limit=20&page=3'],
      ['/items?page=2&offset=40&cursor=abc&q=1', '/items?page=3&q=1&limit=20'],
      ['/items?q=1#results', '/items?q=1&page=3&limit=20#results'],
      ['https://api.test', 'https://api.test?page=3&limit=20'],
      ['https://api.test/v1/items?sort=-id', 'https://api.test/v1/items?sort=-id&page=3&limit=20'],
      ['items?x', 'items?x&page=3&limit=20'],
      ['', '?page=3&limit=20'],
      ['/items?q=1&&tag=x&', '/items?q=1&tag=x&page=3&limit=20'],
      ['/items?&page=2&&', '/items?page=3&limit=20'],
    ])('nextPageURL(%j) → %j', (base, expected) => {
      expect(page.nextPageURL(base)).toBe(expected)
    })

    it('previousPageURL() goes one page back and is empty on page 1', () => {
      expect(page.previousPageURL('/items?q=1&page=2')).toBe('/items?q=1&page=1&limit=20')
      expect(new PageInfo({ page: 1 }).previousPageURL('/items')).toBe('')
    })

    it('builds next and previous links of the same base, and of alternating bases, independently', () => {
      const base = '/items?q=1&page=2&offset=4'
      expect([page.nextPageURL(base), page.previousPageURL(base)]).toEqual([
        '/items?q=1&page=3&limit=20',
        '/items?q=1&page=1&limit=20',
      ])
      expect(page.nextPageURL('/other?page=2')).toBe('/other?page=3&limit=20')
      expect(page.previousPageURL(base)).toBe('/items?q=1&page=1&limit=20')
    })

    it('the WithKeys forms use the given keys', () => {
      expect(page.nextPageURLWithKeys('/items?p=2&s=20&page=2', 'p', 's')).toBe('/items?p=3&s=20&page=2')
      expect(page.previousPageURLWithKeys('/items?p=2', 'p', 's')).toBe('/items?p=1&s=20')
    })

    it('encodes keys and values, and matches encoded keys in the base', () => {
      expect(page.nextPageURLWithKeys('/items?pa%67e=1', 'page', 'per page')).toBe('/items?page=3&per%20page=20')
    })

    it('nextCursorURL() carries the token and limit, drops page and offset, and is empty without more', () => {
      const cursor = new PageInfo({ limit: 5 })
      expect(cursor.nextCursorURL('/items')).toBe('')
      cursor.setNextCursor({ id: 9 })
      expect(cursor.nextCursorURL('/items?page=2&offset=5&sort=-id&cursor=old#top')).toBe(
        `/items?sort=-id&cursor=${cursor.nextCursor}&limit=5#top`,
      )
      expect(cursor.nextCursorURLWithKeys('/items?after=x', 'after', 'n')).toBe(`/items?after=${cursor.nextCursor}&n=5`)
    })
  })
})
