import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { echoApp } from '../test/echo-app.js'
import { resolveConfig } from './config.js'
import { CursorTooLongError, PageInfo, type PaginationConfig, PaginationError } from './index.js'
import { parseWholeNumber } from './integer.js'
import { kConfig } from './page-info.js'
import { parsePageInfo } from './parse.js'

const KEYS = ['page', 'limit', 'offset', 'sort', 'cursor', 'after', 'q']
const queryValue = fc.oneof(
  fc.string(),
  fc.integer().map(String),
  fc.constantFrom('', '-', '1e3', '0x1f', '99999999999999999999', 'eyJpZCI6MX0', '-price,id', 'null'),
  fc.array(fc.string(), { maxLength: 3 }),
)
const query = fc.dictionary(fc.constantFrom(...KEYS), queryValue)
const configs: PaginationConfig[] = [
  {},
  { allowedSorts: ['id', 'price'], cursorParam: 'after', maxLimit: 50 },
  { strict: true, maxOffset: 500, sortFingerprint: true, cursorSecret: 's' },
]

describe('properties', () => {
  it.each(configs)('any query gives a valid PageInfo or a 400, never another error (%j)', (config) => {
    const resolved = resolveConfig(config)
    fc.assert(
      fc.property(query, (q) => {
        let page: PageInfo
        try {
          page = parsePageInfo(q, resolved)
        } catch (error) {
          expect(error).toBeInstanceOf(PaginationError)
          expect((error as PaginationError).statusCode).toBe(400)
          return
        }
        expect(page.limit).toBeGreaterThanOrEqual(1)
        expect(page.limit).toBeLessThanOrEqual(resolved.maxLimit)
        expect(page.offset).toBeGreaterThanOrEqual(0)
        expect(page.offset).toBeLessThanOrEqual(resolved.maxOffset)
        expect(page.page).toBeGreaterThanOrEqual(page.cursor === '' ? 1 : 0)
        expect(Number.isSafeInteger(page.start())).toBe(true)
        expect(page.start()).toBeGreaterThanOrEqual(0)
        expect(page.sort.length).toBeGreaterThanOrEqual(1)
        expect(new Set(page.sort.map((s) => s.field)).size).toBe(page.sort.length)
      }),
      { numRuns: 500 },
    )
  })

  describe('over HTTP', () => {
    const app = echoApp({ allowedSorts: ['id', 'price'], strict: true, cursorSecret: 'k' })
    afterAll(() => app.close())

    it('any query string answers 200 or 400', async () => {
      const pair = fc.tuple(fc.constantFrom(...KEYS), fc.string()).map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      await fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(pair, fc.string()), { maxLength: 6 }), async (parts) => {
          const response = await app.inject(`/items?${parts.join('&')}`)
          expect([200, 400]).toContain(response.statusCode)
          if (response.statusCode === 400) expect(response.json().code).toMatch(/^WEFT_/)
        }),
        { numRuns: 150 },
      )
    })
  })

  it.each(configs)('cursor tokens round-trip any JSON object (%j)', (config) => {
    const resolved = resolveConfig(config)
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (values) => {
        const issuer = new PageInfo()
        issuer[kConfig] = resolved
        try {
          issuer.setNextCursor(values)
        } catch (error) {
          expect(error).toBeInstanceOf(CursorTooLongError)
          return
        }
        expect(issuer.nextCursor.length).toBeLessThanOrEqual(2048)
        const reader = new PageInfo({ cursor: issuer.nextCursor })
        reader[kConfig] = resolved
        expect(reader.cursorValues()).toEqual(JSON.parse(JSON.stringify(values)))
      }),
      { numRuns: 300 },
    )
  })

  it('next-page links keep other parameters in order and carry exactly one page and limit', () => {
    const name = fc.stringMatching(/^[a-z]{1,6}$/).filter((k) => !['page', 'limit', 'offset', 'cursor'].includes(k))
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, fc.string()), { maxLength: 5 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 100 }),
        (params, pageNumber, limit) => {
          const search = new URLSearchParams(params)
          search.append('offset', '5')
          search.append('page', '1')
          const url = new PageInfo({ page: pageNumber, limit }).nextPageURL(`/x?${search}`)
          const parsed = new URLSearchParams(url.slice(url.indexOf('?') + 1))
          expect(parsed.getAll('page')).toEqual([String(pageNumber + 1)])
          expect(parsed.getAll('limit')).toEqual([String(limit)])
          expect(parsed.has('offset')).toBe(false)
          expect([...parsed].filter(([k]) => k !== 'page' && k !== 'limit')).toEqual(params)
        },
      ),
    )
  })

  it('parseWholeNumber agrees with Number for every safe integer', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(parseWholeNumber(String(n))).toBe(n)
      }),
    )
  })
})
