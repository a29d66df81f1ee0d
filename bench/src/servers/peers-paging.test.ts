// The peers' hand-written paging must answer like @weft/pagination's defaults, or the byte check of
// the pagination scenario would compare different pages; checked here against the package itself.
import { PageInfo } from '@weft/pagination'
import { describe, expect, it } from 'vitest'
import { pageQuery, pagingLinks } from './peers-paging.js'

describe('pageQuery', () => {
  it.each([
    ['page=3&limit=20&sort=-price', { page: 3, limit: 20, field: 'price', descending: true }],
    ['', { page: 1, limit: 10, field: 'id', descending: false }],
    ['page=0&limit=500', { page: 1, limit: 100, field: 'id', descending: false }],
    ['page=abc&limit=1.5', { page: 1, limit: 10, field: 'id', descending: false }],
    ['sort=name,%20-price', { page: 1, limit: 10, field: 'price', descending: true }],
    ['page=2&page=7', { page: 2, limit: 10, field: 'id', descending: false }],
  ])('reads %j as the paginate() defaults would', (query, expected) => {
    const params = new URLSearchParams(query)
    const record: Record<string, string | string[]> = {}
    for (const key of new Set(params.keys())) {
      const values = params.getAll(key)
      record[key] = values.length === 1 ? values[0]! : values
    }
    expect(pageQuery(record)).toEqual(expected)
  })
})

describe('pagingLinks', () => {
  it.each([
    ['/products?page=3&limit=20&sort=-price', 3, 20],
    ['/products?sort=-price&page=1&limit=5', 1, 5],
  ])('gives next (and prev) like PageInfo.nextPageURL / previousPageURL for %s', (url, page, limit) => {
    const info = new PageInfo({ page, limit })
    const prev = page > 1 ? `,<${info.previousPageURL(url)}>; rel="prev"` : ''
    expect(pagingLinks(url, { page, limit, field: 'price', descending: true })).toBe(
      `<${info.nextPageURL(url)}>; rel="next"${prev}`,
    )
  })
})
