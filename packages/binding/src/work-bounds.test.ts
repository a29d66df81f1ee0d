import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'
import { makeApp, multipart } from '../test/helpers.js'
import { expectLinearWork } from '../test/work.js'
import { bind } from './index.js'

// Each body decoder costs time linear in the body, whatever its shape (test/work.ts says how that
// is measured).
const Target = Type.Object({
  a: Type.Optional(Type.Array(Type.String())),
  b: Type.Optional(Type.String()),
  d: Type.Optional(Type.Array(Type.Object({ x: Type.Optional(Type.String()) }))),
  n: Type.Optional(Type.Unknown()),
})

const size = 32 * 1024

async function bodyApp() {
  return makeApp(
    async (request) => {
      await bind(request).body(Target)
      return { ok: true }
    },
    { enableSplittingOnParsers: true },
  )
}

function post(contentType: string, payload: string) {
  return { method: 'POST' as const, url: '/', headers: { 'content-type': contentType }, payload }
}

const form = 'application/x-www-form-urlencoded'

describe('work per body is linear in its size', () => {
  it.each([
    ['a repeated form key', (n: number) => post(form, 'a=1&'.repeat(n / 4))],
    ['a comma-split form value', (n: number) => post(form, `a=${',x'.repeat(n / 2)}`)],
    ['a form key of many brackets', (n: number) => post(form, `d${'[x]'.repeat(n / 3)}=1`)],
    ['a form key of unpaired brackets', (n: number) => post(form, `d${'['.repeat(n)}=1`)],
    [
      'indexed form keys',
      (n: number) => post(form, Array.from({ length: n / 12 }, (_, i) => `d[${i % 1000}][x]=1`).join('&')),
    ],
    ['unknown form keys', (n: number) => post(form, Array.from({ length: n / 8 }, (_, i) => `k${i}=1`).join('&'))],
    ['percent-encoded form text', (n: number) => post(form, `b=${'%41'.repeat(n / 3)}`)],
    [
      'JSON nested 256 levels deep',
      (n: number) => post('application/json', `{"n":[${`${'['.repeat(256)}${']'.repeat(256)},`.repeat(n / 513)}1]}`),
    ],
    ['JSON escapes', (n: number) => post('application/json', `{"b":"${'\\u0041'.repeat(n / 6)}"}`)],
    [
      'JSON keys named constructor',
      (n: number) => post('application/json', `{"n":[${'{"constructor":{}},'.repeat(n / 19)}1]}`),
    ],
    ['XML entities', (n: number) => post('application/xml', `<r><b>${'&amp;&#65;'.repeat(n / 10)}</b></r>`)],
    [
      'XML attributes',
      (n: number) => post('application/xml', `<r ${Array.from({ length: n / 8 }, (_, i) => `a${i}="1"`).join(' ')}/>`),
    ],
    ['XML CDATA of brackets', (n: number) => post('application/xml', `<r><b><![CDATA[${']'.repeat(n)}]]></b></r>`)],
    ['XML whitespace', (n: number) => post('application/xml', `<r>${' '.repeat(n)}<b>1</b></r>`)],
    ['XML comments', (n: number) => post('application/xml', `<r>${'<!-- - -->'.repeat(n / 10)}</r>`)],
    [
      'a multipart part of many header lines',
      (n: number) => {
        const boundary = 'weft-work'
        const payload = `--${boundary}\r\nContent-Disposition: form-data; name="b"${'\r\nX-A: b'.repeat(n / 8)}\r\n\r\nv\r\n--${boundary}--\r\n`
        return post(`multipart/form-data; boundary=${boundary}`, payload)
      },
    ],
    [
      'a multipart value of boundary-like lines',
      (n: number) => {
        const body = multipart([{ name: 'b', value: '\r\n--'.repeat(n / 4) }])
        return { method: 'POST' as const, url: '/', headers: body.headers, payload: body.payload }
      },
    ],
  ])('%s', async (_name, request) => {
    const app = await bodyApp()
    const res = await expectLinearWork(app, request, size)
    expect(res.statusCode).toBeLessThan(500)
  })

  it('refuses a large JSON body nested more than 256 levels deep with a 400, in linear time', async () => {
    const app = await bodyApp()
    const deep = (n: number) => post('application/json', `{"n":${'['.repeat(n / 2)}${']'.repeat(n / 2)}}`)
    const res = await expectLinearWork(app, deep, size)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      code: 'WEFT_BODY_TOO_DEEP',
      message: 'the JSON body is nested more than 256 levels deep',
    })
  })

  it('gives a deep JSON body the same 400 when json() reads it under another Content-Type', async () => {
    const app = await makeApp((request) => bind(request).json(Target))
    const payload = `{"n":${'['.repeat(size / 2)}${']'.repeat(size / 2)}}`
    for (const contentType of ['text/plain', undefined]) {
      const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType }
      const res = await app.inject({ method: 'POST', url: '/', headers, payload })
      expect(res.statusCode, contentType).toBe(400)
      expect(res.json(), contentType).toMatchObject({
        code: 'WEFT_BODY_TOO_DEEP',
        message: 'the JSON body is nested more than 256 levels deep',
      })
    }
  })

  it('parses a JSON body under 16 KiB whatever its nesting', async () => {
    const app = await bodyApp()
    const res = await app.inject(post('application/json', `{"n":${'['.repeat(4000)}${']'.repeat(4000)}}`))
    expect(res.statusCode).toBe(200)
  })

  it('refuses XML nested too deep with a 400', async () => {
    const app = await bodyApp()
    const res = await app.inject(post('application/xml', `<r>${'<b>'.repeat(5000)}${'</b>'.repeat(5000)}</r>`))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_BIND_ERROR', message: expect.stringContaining('nested') })
  })
})

describe('string formats', () => {
  // combining marks whose classes alternate: NFC orders such a run by insertion, quadratic in its length
  const marks = (n: number) => '\u0301\u0316'.repeat(n / 4)
  const Signup = Type.Object({ email: Type.String({ format: 'idn-email' }) })

  it('refuses a long idn-email value in linear time, and still accepts an IDN address', async () => {
    const app = await makeApp((request) => bind(request).json(Signup))
    const request = (n: number) => post('application/json', JSON.stringify({ email: `e${marks(n)}@example.com` }))
    const res = await expectLinearWork(app, request, size)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'WEFT_VALIDATION_FAILED' })
    const ok = await app.inject(post('application/json', JSON.stringify({ email: 'jose\u0301@exämple.com' })))
    expect(ok.json()).toEqual({ email: 'jose\u0301@exämple.com' })
    const long = await app.inject(post('application/json', JSON.stringify({ email: `${'a'.repeat(243)}@example.com` })))
    expect(long.statusCode).toBe(400)
  })
})

describe('validation errors of long arrays', () => {
  const Choices = Type.Object({
    u: Type.Array(Type.Union([Type.Literal('x'), Type.Literal('y'), Type.Integer()])),
    rows: Type.Optional(Type.Array(Type.Object({ v: Type.Array(Type.Integer({ maximum: 9 })) }))),
  })

  it('cost about what accepting the body costs, however many items fail a union', async () => {
    const app = await makeApp((request) => bind(request).json(Choices))
    const body = (item: string) => post('application/json', `{"u":[${Array(100_000).fill(item).join(',')}]}`)
    const cpu = async (item: string) => {
      const start = process.cpuUsage()
      const res = await app.inject(body(item))
      const { user, system } = process.cpuUsage(start)
      return { ms: (user + system) / 1000, res }
    }
    const valid: number[] = []
    const refused: number[] = []
    for (let round = 0; round < 3; round++) {
      valid.push((await cpu('1')).ms)
      const { ms, res } = await cpu('true')
      refused.push(ms)
      expect(res.statusCode).toBe(400)
      // the first items that fail, under their own indexes
      expect(res.json().message).toMatch(/^body\/u\/0 must be "x", "y" or an integer, body\/u\/1 must be/)
    }
    // listing every failed item's alternatives cost 4 to 13 times as much (1.4 s and 390 MB for 1 MB of CBOR)
    expect(Math.min(...refused)).toBeLessThan(2.5 * Math.min(...valid))
  })

  it('leave arrays with whole-array rules or item lists to TypeBox, which names them as before', async () => {
    const Lists = Type.Object({
      capped: Type.Optional(Type.Array(Type.Integer(), { maxItems: 100 })),
      pair: Type.Optional(Type.Unsafe<unknown[]>({ type: 'array', items: [{ type: 'integer' }, { type: 'string' }] })),
    })
    const app = await makeApp((request) => bind(request).json(Lists))
    const capped = await app.inject(post('application/json', JSON.stringify({ capped: Array(101).fill(1) })))
    expect(capped.json().message).toBe('body/capped must have at most 100 items')
    const pair = await app.inject(post('application/json', JSON.stringify({ pair: Array(100).fill('x') })))
    expect(pair.statusCode).toBe(400)
  })

  it('name the failing items by their index in the body, nested arrays too', async () => {
    const app = await makeApp((request) => bind(request).json(Choices))
    const u: unknown[] = Array(100).fill('x')
    u[70] = true
    const rows = Array.from({ length: 100 }, () => ({ v: Array(100).fill(1) }))
    ;(rows[80] as { v: number[] }).v[75] = 10
    ;(rows[90] as { v: number[] }).v[99] = 11
    const res = await app.inject(post('application/json', JSON.stringify({ u, rows })))
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(
      'body/u/70 must be "x", "y" or an integer, body/rows/80/v/75 must be at most 9, body/rows/90/v/99 must be at most 9',
    )
  })
})
