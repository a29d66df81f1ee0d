import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { controlCharacters, hostileInfix, loneSurrogates } from '../src/fuzz/inputs/hostile-text.js'
import { encodeRaw, invalidBytesMark, invalidUtf8 } from '../src/fuzz/inputs/raw-json.js'
import { hostileValue, validValue } from '../src/fuzz/inputs/schema-values.js'
import { leaksIn } from '../src/fuzz/logs.js'
import { type OpenApiDocument, operationsOf } from '../src/fuzz/openapi/document.js'
import { documentOracle } from '../src/fuzz/openapi/oracle.js'

const json = { 'content-type': 'application/json; charset=utf-8' }

/** A small document in the shape @fastify/swagger writes: a shared error schema behind a `$ref`. */
const document: OpenApiDocument = {
  paths: {
    '/things/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        security: [{ bearerAuth: [] }],
        responses: {
          200: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'created_at', 'note'],
                  properties: {
                    id: { type: 'integer' },
                    created_at: { type: 'string', format: 'date-time' },
                    note: { type: 'string', nullable: true },
                  },
                },
              },
            },
          },
          '4XX': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Error: {
        type: 'object',
        required: ['code'],
        properties: { code: { type: 'string' } },
        additionalProperties: false,
      },
    },
  },
}

describe('the document oracle', () => {
  const operations = operationsOf(document)
  const check = documentOracle(operations)
  const request = { method: 'GET' as const, url: '/things/1', headers: {}, operation: 'GET /things/{id}' }
  const answer = (statusCode: number, body: unknown, headers: Record<string, string> = json) => ({
    statusCode,
    headers,
    body: JSON.stringify(body),
  })

  it('reads operations with their path in Fastify form, $refs resolved and security noted', () => {
    expect(operations.map((op) => [op.name, op.path, op.secured])).toEqual([['GET /things/{id}', '/things/:id', true]])
    expect(operations[0]?.responses['4XX']?.content?.['application/json']?.schema).toMatchObject({ required: ['code'] })
  })

  it('accepts answers the document describes (nullable and formats understood, 4XX as a range)', () => {
    expect(check(request, answer(200, { id: 1, created_at: '2026-11-23T00:00:00.000Z', note: null }))).toEqual([])
    expect(check(request, answer(404, { code: 'NOT_FOUND' }))).toEqual([])
  })

  it.each([
    ['an undocumented status', answer(500, { code: 'INTERNAL' }), 'does not document status 500'],
    ['a body the schema rejects', answer(200, { id: 'one', created_at: 'x', note: 1 }), 'body violates 200'],
    ['a broken format', answer(200, { id: 1, created_at: 'yesterday', note: '' }), 'must match format'],
    ['an extra field in a closed schema', answer(400, { code: 'X', stack: 'at …' }), 'additional properties'],
    ['another content type', answer(200, {}, { 'content-type': 'text/html' }), 'answers "text/html"'],
  ])('flags %s', (_name, response, problem) => {
    expect(check(request, response).join('; ')).toContain(problem)
  })

  it('leaves requests to no documented operation to the other checks', () => {
    expect(check({ ...request, operation: undefined }, answer(500, {}))).toEqual([])
  })

  it('holds an answer to the operation only when the URL is one of its paths (a trailing slash tolerated)', () => {
    expect(check({ ...request, url: '/things/' }, answer(405, { code: 'METHOD_NOT_ALLOWED' }))).toEqual([])
    expect(check({ ...request, url: '/things/1/?x=1' }, answer(500, {}))).toEqual([
      'document: GET /things/{id} does not document status 500',
    ])
  })
})

describe('the log leak check', () => {
  it.each([
    ['a scrypt hash', '{"msg":"x","params":"scrypt$1024$8$1$ArOp4_Qs6MrTnJbdTb20FQ$q0i0WZQ02qYr"}', 'password hash'],
    ['a JWT', '{"token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwiaWF0IjoxfQ.dzDLZ7HlVjwlYXJCAvM2Tg"}', 'token'],
    ["drizzle's failed query", '{"err":{"message":"Failed query: select 1\\nparams: a@b.c"}}', 'SQL parameters'],
    ['a query error with its parameters', '{"err":{"params":["a@b.c"]}}', 'SQL parameters'],
    ['a password the fuzzer holds', '{"body":"hunter2-password"}', 'known password or token'],
  ])('flags %s', (_name, line, kind) => {
    expect(
      leaksIn([line], ['hunter2-password'])
        .map((l) => l.kind)
        .join(),
    ).toContain(kind)
  })

  it('passes an ordinary request log', () => {
    const line = '{"level":30,"reqId":"req-1","res":{"statusCode":400},"msg":"request completed"}'
    expect(leaksIn([line], ['hunter2-password'])).toEqual([])
  })
})

describe('the hostile generators', () => {
  it('splice NUL, every C0/C1 control and lone surrogates into strings', () => {
    const seen = new Set(fc.sample(hostileInfix, { numRuns: 5_000, seed: 14 }).flatMap((s) => [...s]))
    expect(controlCharacters).toHaveLength(65)
    expect(controlCharacters.filter((c) => !seen.has(c))).toEqual([])
    expect(loneSurrogates.some((s) => seen.has(s))).toBe(true)
  })

  it('keep a pattern-constrained string field mostly valid around the hostile part', () => {
    const schema = { type: 'string', minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9_.-]+$' }
    const values = fc.sample(validValue(schema), { numRuns: 200, seed: 14 }) as string[]
    expect(values.every((v) => /^[A-Za-z0-9_.-]{3,32}$/.test(v))).toBe(true)
    const hostile = fc.sample(hostileValue(schema), { numRuns: 500, seed: 14 })
    expect(hostile.some((v) => v.includes('\\u0000'))).toBe(true)
  })

  it('turn the invalid-bytes mark into bytes no UTF-8 decoder accepts', () => {
    for (const sequence of invalidUtf8) {
      const bytes = encodeRaw(`{"a":"x${invalidBytesMark}"}`, [sequence])
      expect(new TextDecoder('utf-8', { fatal: false }).decode(bytes)).toContain('\ufffd')
    }
  })
})
