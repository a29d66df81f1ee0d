import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeApp, multipart } from '../test/helpers.js'
import { bind, FileField } from './index.js'

const Schema = Type.Object({
  id: Type.Optional(Type.Integer({ header: 'X-Id' })),
  ratio: Type.Optional(Type.Number()),
  flag: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.Array(Type.String())),
  ids: Type.Optional(Type.Array(Type.Integer())),
  prefs: Type.Optional(
    Type.Object({ theme: Type.Optional(Type.String()), sizes: Type.Optional(Type.Array(Type.Integer())) }),
  ),
  posts: Type.Optional(Type.Array(Type.Object({ title: Type.Optional(Type.String()) }))),
  file: Type.Optional(FileField()),
})

// keys and values built from the characters that matter to the decoder
const piece = fc.constantFrom(
  'id',
  'tags',
  'ids',
  'prefs',
  'posts',
  'title',
  'theme',
  'sizes',
  '__proto__',
  'constructor',
  'prototype',
  'polluted',
  '0',
  '1001',
  '99999',
  '',
)
const glue = fc.constantFrom('[', ']', '.', '[]', '%5B', '%5D', ',', '=', '&', '%', '+')
const hostileKey = fc
  .array(fc.oneof(piece, glue, fc.string({ maxLength: 4 })), { maxLength: 8 })
  .map((parts) => parts.join(''))
const value = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('1', '-3', '2.5', 'true', 'a,b', '', 'null'))
const queryString = fc
  .array(fc.tuple(hostileKey, value), { maxLength: 12 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'))

let app: FastifyInstance
let splitting: FastifyInstance

beforeAll(async () => {
  const handler = async (request: Parameters<typeof bind>[0]) => {
    const kind = (request.headers['x-op'] as string | undefined) ?? 'query'
    const binder = bind(request)
    if (kind === 'all') return binder.all(Schema)
    if (kind === 'header') return binder.header(Schema)
    if (kind === 'body') return binder.body(Schema)
    return binder.query(Schema)
  }
  app = await makeApp(handler)
  splitting = await makeApp(handler, { enableSplittingOnParsers: true, parserDecoder: { ignoreUnknownKeys: false } })
})

afterAll(async () => {
  await app.close()
  await splitting.close()
})

function assertClean(status: number, body: { code?: string }) {
  expect(status === 200 || (status >= 400 && status < 500), `status ${status} ${JSON.stringify(body)}`).toBe(true)
  // Fastify's own JSON parser may refuse first (FST_ERR_CTP_*, also a 4xx)
  if (status !== 200) expect(body.code).toMatch(/^(WEFT_BIND_ERROR|WEFT_VALIDATION_FAILED|FST_ERR_CTP_)/)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  expect(Object.prototype).not.toHaveProperty('polluted')
}

describe('hostile input (property-based)', () => {
  it('query strings only ever give a value or a 4xx BindError/ValidationError', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, fc.boolean(), async (qs, split) => {
        const res = await (split ? splitting : app).inject({ url: `/?${qs}` })
        assertClean(res.statusCode, res.json())
      }),
      { numRuns: 300 },
    )
  })

  it('urlencoded bodies and all() behave the same way', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, queryString, async (qs, body) => {
        const res = await app.inject({
          method: 'POST',
          url: `/?${qs}`,
          headers: { 'x-op': 'all', 'content-type': 'application/x-www-form-urlencoded' },
          payload: body,
        })
        assertClean(res.statusCode, res.json())
      }),
      { numRuns: 150 },
    )
  })

  it('multipart forms with hostile field names behave the same way', async () => {
    const safeName = hostileKey.map((k) => k.replace(/["\r\n\\]/g, '_'))
    const part = fc.oneof(
      fc.record({ name: safeName, value }),
      fc.record({ name: safeName, filename: fc.constant('f.txt'), type: fc.constant('text/plain'), content: value }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 6 }), async (parts) => {
        const form = multipart(parts)
        const res = await app.inject({
          method: 'POST',
          url: '/',
          payload: form.payload,
          headers: { ...form.headers, 'x-op': 'body' },
        })
        assertClean(res.statusCode, res.json())
      }),
      { numRuns: 100 },
    )
  })

  it('headers behave the same way', async () => {
    const headerName = fc.constantFrom('x-id', 'tags', 'ids', 'prefs[theme]', 'posts[0][title]', 'flag', 'posts[x]')
    const headerValue = fc.string({ maxLength: 8 }).filter((v) => /^[\x20-\x7e]*$/.test(v))
    await fc.assert(
      fc.asyncProperty(fc.dictionary(headerName, headerValue, { maxKeys: 5 }), async (headers) => {
        const res = await app.inject({ url: '/', headers: { ...headers, 'x-op': 'header' } })
        assertClean(res.statusCode, res.json())
      }),
      { numRuns: 150 },
    )
  })

  it('JSON bodies of any shape behave the same way', async () => {
    const json = fc
      .jsonValue({ maxDepth: 3 })
      .map((v) =>
        typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v, ['__proto__']: { polluted: 1 } } : v,
      )
    await fc.assert(
      fc.asyncProperty(json, async (body) => {
        const res = await app.inject({
          method: 'POST',
          url: '/',
          headers: { 'x-op': 'body', 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        })
        assertClean(res.statusCode, res.json())
      }),
      { numRuns: 150 },
    )
  })
})
