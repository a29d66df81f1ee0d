import { describe, expect, it } from 'vitest'
import { makeApp } from '../test/app.js'
import { fill, growth, LINEAR_BOUND } from '../test/work.js'
import { handle } from './index.js'
import { MAX_RANGES as MAX_RANGES_FOR_TESTS } from './range.js'

async function rangeOf(header: string | undefined, size = 1000) {
  const app = await makeApp()
  app.get(
    '/',
    handle((c) => c.json(c.range(size))),
  )
  return app.inject({ url: '/', headers: header === undefined ? {} : { range: header } })
}

describe('range', () => {
  it.each([
    ['bytes=0-499', [{ start: 0, end: 499 }]],
    ['BYTES=0-0', [{ start: 0, end: 0 }]],
    ['bytes=500-', [{ start: 500, end: 999 }]],
    ['bytes=-200', [{ start: 800, end: 999 }]],
    ['bytes=-5000', [{ start: 0, end: 999 }]],
    ['bytes=900-5000', [{ start: 900, end: 999 }]],
    [
      'bytes=500-600, 0-100',
      [
        { start: 500, end: 600 },
        { start: 0, end: 100 },
      ],
    ],
    ['bytes= 1 - 2 ', [{ start: 1, end: 2 }]],
    ['bytes=0-10,2000-3000', [{ start: 0, end: 10 }]],
  ])('%s', async (header, ranges) => {
    const res = await rangeOf(header)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ type: 'bytes', ranges })
  })

  it.each(['bytes=abc', 'bytes=5-1', 'bytes=0-10,x', 'bytes=-', 'bytes', '', 'bytes=1-2-3', 'bytes=,', 'bytes= , '])(
    'answers 400 WEFT_RANGE_MALFORMED for %j',
    async (header) => {
      const res = await rangeOf(header)
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('WEFT_RANGE_MALFORMED')
    },
  )

  it.each([
    ['bytes=,0-5', [{ start: 0, end: 5 }]],
    ['bytes= , 0-10', [{ start: 0, end: 10 }]],
    ['bytes=0-1,', [{ start: 0, end: 1 }]],
    [
      'bytes=0-1,,\t,5-6',
      [
        { start: 0, end: 1 },
        { start: 5, end: 6 },
      ],
    ],
  ])('ignores empty list elements in %j', async (header, ranges) => {
    const res = await rangeOf(header)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ type: 'bytes', ranges })
  })

  it('answers 400 WEFT_RANGE_MALFORMED when the header is missing', async () => {
    expect((await rangeOf(undefined)).json().code).toBe('WEFT_RANGE_MALFORMED')
  })

  it('answers 400 WEFT_RANGE_UNIT for other units', async () => {
    const res = await rangeOf('items=0-5')
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_RANGE_UNIT')
  })

  it(`refuses more than ${MAX_RANGES_FOR_TESTS} ranges`, async () => {
    const header = `bytes=${Array.from({ length: MAX_RANGES_FOR_TESTS + 1 }, (_, i) => `${i}-${i}`).join(',')}`
    expect((await rangeOf(header)).statusCode).toBe(400)
    const ok = `bytes=${Array.from({ length: MAX_RANGES_FOR_TESTS }, (_, i) => `${i}-${i}`).join(',')}`
    expect((await rangeOf(ok)).json().ranges).toHaveLength(MAX_RANGES_FOR_TESTS)
  })

  it('refuses a huge header quickly with 400', async () => {
    const res = await rangeOf(`bytes=${'0-1,'.repeat(5000)}0-1`)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('WEFT_RANGE_MALFORMED')
  })

  it('answers 416 with Content-Range when nothing is satisfiable', async () => {
    const res = await rangeOf('bytes=1000-2000', 1000)
    expect(res.statusCode).toBe(416)
    expect(res.headers['content-range']).toBe('bytes */1000')
    expect(res.json().code).toBe('WEFT_RANGE_NOT_SATISFIABLE')
  })

  it('lets the caller recover from the error', async () => {
    const app = await makeApp()
    app.get(
      '/',
      handle((c) => {
        try {
          c.range(10)
        } catch {
          c.status(200).sendString('whole')
        }
      }),
    )
    const res = await app.inject({ url: '/', headers: { range: 'pages=1-2' } })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('whole')
  })
})

const rangeApp = await makeApp()
rangeApp.get(
  '/',
  handle((c) => c.json(c.range(1000))),
)
const send = (header: string) => rangeApp.inject({ url: '/', headers: { range: header } })

describe('range: bounded work', () => {
  it.each([
    ['spaces before a bad element', (n: number) => `bytes=${fill(' ', n)}x`],
    ['spaces around the dash', (n: number) => `bytes=1${fill(' ', n / 2)}-${fill(' ', n / 2)}x`],
    ['a long number', (n: number) => `bytes=${fill('1', n)}-`],
    ['many empty elements', (n: number) => `bytes=${fill(',', n)}0-1`],
  ])('%s: the work grows linearly with the header', async (_name, make) => {
    expect(await growth(make, send)).toBeLessThanOrEqual(LINEAR_BOUND)
  })

  it('still reads spaces around the numbers', async () => {
    expect((await send(`bytes=${fill(' ', 100)}1 ${fill(' ', 100)}- 2 `)).json()).toEqual({
      type: 'bytes',
      ranges: [{ start: 1, end: 2 }],
    })
  })
})
